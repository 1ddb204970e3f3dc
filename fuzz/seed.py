#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora (corpus/, not committed) from the
conformance cases, the gallery and the inputs of past crashes (regressions/)."""
import glob, hashlib, os, re, shutil

ROOT = os.path.dirname(os.path.abspath(__file__))
cases = sorted(glob.glob(f"{ROOT}/../tests/conformance/*/*.yaml") + glob.glob(f"{ROOT}/../www/examples/*.yaml"))

def put(target, text):
    d = f"{ROOT}/corpus/{target}"
    os.makedirs(d, exist_ok=True)
    data = text.encode()
    with open(f"{d}/{hashlib.sha1(data).hexdigest()[:16]}", "wb") as f:
        f.write(data)

def blocks(text):
    """The literal blocks under `files:` (path, text), read by indentation."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^  (\S.*?): \|[-+]?\s*$", lines[i])
        if m:
            body, i = [], i + 1
            while i < len(lines) and (lines[i].startswith("    ") or lines[i] == ""):
                body.append(lines[i][4:])
                i += 1
            out.append((m.group(1).strip("\"'"), "\n".join(body)))
        else:
            i += 1
    return out

for path in cases:
    text = open(path, encoding="utf-8").read()
    put("lookup", text)
    for name, body in blocks(text.split("\nlookups:")[0]):
        kind = "hiera_config" if name.endswith("hiera.yaml") else "hocon" if name.endswith(".conf") else "yaml"
        put("manifest" if name.endswith(".pp") else kind, body)
        if name.endswith(".eyaml"):
            for line in body.split("\n"):
                if "ENC[" in line:
                    put("eyaml", line.split(":", 1)[-1].strip().strip("\"'"))
        for line in body.split("\n"):
            if "%{" in line:
                put("interpolation", line.split(":", 1)[-1].strip().strip("\"'"))
    for key in re.findall(r"^- key: (.+)$", text, re.M):
        put("dotted_key", key.strip("\"'"))
for pattern in ["*.yaml", "**/*.yaml", "{a,b}.yaml", "sub/[cd]*", "?.yaml", "**/{e,c}.*", "[!a]*"]:
    put("glob", pattern)
for link in ["h1.", "h1.AAAA", "h2.abc", "garbage", "h1.eJzLSM3JyVcozy/KSQEAGgQEXQ"]:
    put("share_link", link)
for path in glob.glob(f"{ROOT}/regressions/*/*"):
    target = os.path.basename(os.path.dirname(path))
    os.makedirs(f"{ROOT}/corpus/{target}", exist_ok=True)
    shutil.copy(path, f"{ROOT}/corpus/{target}/")
