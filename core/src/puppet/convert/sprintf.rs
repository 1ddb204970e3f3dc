//! Ruby's `Kernel#format` of a single value, which Puppet's string
//! conversion calls with its format strings: the integer, float and string
//! conversions, with Ruby's flags, widths and precisions (ruby/sprintf.c and
//! its BSD `vfprintf` for floats).

use crate::value::{inspect_str, ruby_float, Int};

/// A parsed `%<flags><width>.<precision><conversion>`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Spec {
    /// `-`: left-justify in the width.
    pub(super) minus: bool,
    /// `+`: a sign on positive numbers too.
    pub(super) plus: bool,
    /// ` `: a space where a positive number's sign goes.
    pub(super) space: bool,
    /// `#`: the alternate form.
    pub(super) sharp: bool,
    /// `0`: numbers padded with zeros.
    pub(super) zero: bool,
    pub(super) width: Option<usize>,
    pub(super) prec: Option<usize>,
    /// The conversion letter.
    pub(super) conv: char,
}

/// The value Ruby's `format` is given.
#[derive(Clone, Debug)]
pub(super) enum Arg<'a> {
    Int(Int),
    Float(f64),
    Str(&'a str),
}

/// Ruby's `format(fmt, arg)`: the text around conversions as it is, `%%`
/// as `%`, and the one conversion that takes `arg` (a second one has no
/// argument left); Ruby's `ArgumentError` message for what it refuses.
pub(super) fn format(fmt: &str, arg: Arg) -> Result<String, String> {
    let mut out = String::new();
    let mut arg = Some(arg);
    let mut rest = fmt;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let (spec, after) = parse(&rest[at + 1..])?;
        rest = after;
        match spec {
            None => out.push('%'),
            Some(spec) => out.push_str(&convert(&spec, arg.take().ok_or("too few arguments")?)?),
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Reads the spec after a `%` as ruby/sprintf.c does: `None` for a `%`
/// that stands for itself, and what follows the spec.
fn parse(text: &str) -> Result<(Option<Spec>, &str), String> {
    let mut spec =
        Spec { minus: false, plus: false, space: false, sharp: false, zero: false, width: None, prec: None, conv: 's' };
    let mut flags = false;
    let mut chars = text.char_indices().peekable();
    let number = |chars: &mut std::iter::Peekable<std::str::CharIndices>, mut n: usize| {
        while let Some(d) = chars.peek().and_then(|&(_, c)| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d as usize);
            chars.next();
        }
        n
    };
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' => spec.space = true,
            '#' => spec.sharp = true,
            '+' => spec.plus = true,
            '-' => spec.minus = true,
            '0' => spec.zero = true,
            '1'..='9' if spec.width.is_none() && spec.prec.is_none() => {
                spec.width = Some(number(&mut chars, c as usize - '0' as usize));
            }
            '.' if spec.prec.is_none() => spec.prec = Some(number(&mut chars, 0)),
            // A line break after `%` leaves the `%` as it is.
            '%' | '\n' if !flags => return Ok((None, &text[i + usize::from(c == '%')..])),
            '%' | '\n' => return Err("invalid format character - %".into()),
            '<' | '{' => return Err("malformed name - unmatched parenthesis".into()),
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'b' | 'B' | 'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' | 's' | 'p'
            | 'c' => {
                spec.conv = c;
                return Ok((Some(spec), &text[i + 1..]));
            }
            c if c.is_control() => return Err("malformed format string".into()),
            c => return Err(format!("malformed format string - %{c}")),
        }
        flags = true;
    }
    Err("incomplete format specifier; use %% (double %) instead".into())
}

/// One conversion of `arg`, which Ruby first makes the kind the
/// conversion wants.
fn convert(spec: &Spec, arg: Arg) -> Result<String, String> {
    Ok(match (spec.conv, arg) {
        ('d' | 'i' | 'u' | 'o' | 'x' | 'X' | 'b' | 'B', Arg::Int(i)) => int(spec, &i),
        ('d' | 'i' | 'u' | 'o' | 'x' | 'X' | 'b' | 'B', Arg::Float(f)) => int(spec, &float_to_int(f)?),
        ('d' | 'i' | 'u' | 'o' | 'x' | 'X' | 'b' | 'B', Arg::Str(s)) => {
            return Err(format!("invalid value for Integer(): {}", inspect_str(s)))
        }
        ('e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A', Arg::Int(i)) => float(spec, i.to_f64()),
        ('e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A', Arg::Float(f)) => float(spec, f),
        ('e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A', Arg::Str(s)) => {
            return Err(format!("invalid value for Float(): {}", inspect_str(s)))
        }
        ('c', Arg::Str(s)) => text(spec, s.get(..s.chars().next().map_or(0, char::len_utf8)).unwrap_or("")),
        ('c', Arg::Int(i)) => {
            let c =
                i.to_i128().and_then(|i| u32::try_from(i).ok()).and_then(char::from_u32).ok_or("invalid character")?;
            text(spec, c.encode_utf8(&mut [0; 4]))
        }
        ('c', Arg::Float(f)) => return convert(spec, Arg::Int(float_to_int(f)?)),
        ('p', Arg::Str(s)) => text(spec, &inspect_str(s)),
        (_, Arg::Str(s)) => text(spec, s),
        (_, Arg::Int(i)) => text(spec, &i.to_string()),
        (_, Arg::Float(f)) => text(spec, &ruby_float(f)),
    })
}

/// Ruby's `Float#to_i`.
pub(super) fn float_to_int(f: f64) -> Result<Int, String> {
    Int::from_f64(f).ok_or_else(|| {
        if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    })
}

/// `%s` of a text: at most `prec` characters, padded with spaces to `width`.
pub(super) fn text(spec: &Spec, s: &str) -> String {
    let s = match spec.prec {
        Some(p) => s.char_indices().nth(p).map_or(s, |(i, _)| &s[..i]),
        None => s,
    };
    pad(spec, s.chars().count(), s, "")
}

/// `s` justified in the spec's width with spaces (`minus`: on the right);
/// `len` is its length in characters, `prefix` goes before it.
fn pad(spec: &Spec, len: usize, s: &str, prefix: &str) -> String {
    let fill = spec.width.unwrap_or(0).saturating_sub(len + prefix.len());
    let spaces = " ".repeat(fill);
    if spec.minus {
        format!("{prefix}{s}{spaces}")
    } else {
        format!("{spaces}{prefix}{s}")
    }
}

/// An integer conversion, `d i u o x X b B`, as ruby/sprintf.c makes it:
/// without `+` or ` `, a negative number in base 2, 8 or 16 is shown as
/// its two's complement, `..` and the digits from the first that repeats
/// (`-255` is `..f01` in `%x`).
pub(super) fn int(spec: &Spec, v: &Int) -> String {
    let (base, numbits): (u32, u32) = match spec.conv {
        'o' => (8, 3),
        'x' | 'X' => (16, 4),
        'b' | 'B' => (2, 1),
        _ => (10, 0),
    };
    let signed = base == 10 || spec.plus || spec.space;
    let prefix = match (spec.sharp, spec.conv) {
        (true, 'o') => "0",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        (true, 'b') => "0b",
        (true, 'B') => "0B",
        _ => "",
    };
    let mut width = spec.width.unwrap_or(0) as i64;
    let mut sign = "";
    let mut dots = false;
    let mut digits = if signed {
        if v.is_negative() {
            sign = "-";
        } else if spec.plus {
            sign = "+";
        } else if spec.space {
            sign = " ";
        }
        width -= sign.len() as i64;
        match base {
            10 => v.magnitude_text(),
            _ => complement_digits(&if v.is_negative() { v.neg() } else { v.clone() }, base, numbits),
        }
    } else {
        dots = v.is_negative();
        complement_digits(v, base, numbits)
    };
    if spec.conv == 'X' {
        digits.make_ascii_uppercase();
    }
    let mut prec = spec.prec.map_or(-1, |p| p as i64);
    if dots {
        prec -= 2;
        width -= 2;
    }
    let mut len = digits.len() as i64;
    let zero_digit = digits == "0";
    let mut prefix = prefix;
    if prefix == "0" {
        if dots {
            prefix = "";
        } else if zero_digit {
            len = 0;
            if spec.prec.is_some() {
                prec -= 1;
            }
        } else if spec.prec.is_some() && prec > len {
            prefix = "";
        }
    } else if zero_digit {
        prefix = "";
    }
    width -= prefix.len() as i64;
    if spec.zero && !spec.minus && spec.prec.is_none() {
        prec = width;
        width = 0;
    } else {
        if prec < len {
            if prefix.is_empty() && prec == 0 && zero_digit {
                len = 0;
            }
            prec = len;
        }
        width -= prec;
    }
    let mut out = String::new();
    if !spec.minus {
        out.extend(std::iter::repeat_n(' ', width.max(0) as usize));
        width = 0;
    }
    out.push_str(sign);
    out.push_str(prefix);
    if dots {
        out.push_str("..");
    }
    if prec > len {
        let fill = if dots {
            match spec.conv {
                'x' => 'f',
                'X' => 'F',
                'o' => '7',
                _ => '1',
            }
        } else {
            '0'
        };
        // `-` without a precision pads with spaces only, at the end.
        if dots || !spec.minus || spec.prec.is_some() {
            out.extend(std::iter::repeat_n(fill, (prec - len) as usize));
        }
    }
    out.push_str(&digits[..len as usize]);
    out.extend(std::iter::repeat_n(' ', width.max(0) as usize));
    out
}

/// The digits of `v`'s two's complement in a base of `numbits` bits a
/// digit: as many as `|v|` has, and one more when the top one would not
/// show the sign (Ruby's rule, so that `-1` is `f` and `-16` is `f0`); for
/// `v` of 0 and up, its plain digits.
fn complement_digits(v: &Int, base: u32, numbits: u32) -> String {
    let mut bits = v.magnitude_bits();
    let magnitude_bits = bits.len() as u32;
    let mut numdigits = magnitude_bits.div_ceil(numbits);
    let top_zeros = numdigits * numbits - magnitude_bits;
    let single_bit = bits.iter().filter(|&&b| b).count() == 1;
    if numdigits == 0 || ((top_zeros != numbits - 1 || !single_bit) && v.is_negative()) {
        numdigits += 1;
    }
    bits.resize((numdigits * numbits) as usize, false);
    if v.is_negative() {
        // Two's complement: the bits up to the lowest 1 stay, the rest flip.
        if let Some(lowest) = bits.iter().position(|&b| b) {
            bits[lowest + 1..].iter_mut().for_each(|b| *b = !*b);
        }
    }
    bits.chunks(numbits as usize)
        .rev()
        .map(|digit| {
            let d = digit.iter().rev().fold(0, |d, &b| d * 2 + u32::from(b));
            std::char::from_digit(d, base).unwrap_or('?')
        })
        .collect()
}

/// A float conversion, `e E f g G a A`, as C's printf makes it, but for
/// Ruby's own words for what is not finite (`Inf`, `NaN`, never padded
/// with zeros).
pub(super) fn float(spec: &Spec, v: f64) -> String {
    let sign = if v.is_sign_negative() && !v.is_nan() {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    if !v.is_finite() {
        let word = if v.is_nan() { "NaN" } else { "Inf" };
        return pad(spec, word.len(), word, sign);
    }
    let a = v.abs();
    let upper = spec.conv.is_ascii_uppercase();
    let (prefix, body) = match spec.conv.to_ascii_lowercase() {
        'f' => ("", fixed(a, spec.prec.unwrap_or(6), spec.sharp)),
        'e' => ("", exponent(a, spec.prec.unwrap_or(6), spec.sharp)),
        'g' => ("", general(a, spec.prec.unwrap_or(6), spec.sharp)),
        _ => ("0x", hex(a, spec.prec, spec.sharp)),
    };
    let (prefix, body) =
        if upper { (prefix.to_ascii_uppercase(), body.to_ascii_uppercase()) } else { (prefix.into(), body) };
    let head = format!("{sign}{prefix}");
    if spec.zero && !spec.minus {
        let zeros = spec.width.unwrap_or(0).saturating_sub(head.len() + body.len());
        format!("{head}{}{body}", "0".repeat(zeros))
    } else {
        pad(spec, body.len(), &body, &head)
    }
}

fn fixed(a: f64, prec: usize, sharp: bool) -> String {
    let mut s = format!("{a:.prec$}");
    if sharp && prec == 0 {
        s.push('.');
    }
    s
}

/// `%e`: Rust's digits, C's exponent (a sign and at least two digits).
fn exponent(a: f64, prec: usize, sharp: bool) -> String {
    let s = format!("{a:.prec$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let point = if sharp && prec == 0 { "." } else { "" };
    format!("{mantissa}{point}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// `%g`: `%e` for exponents below -4 or from the precision up, `%f`
/// otherwise, without trailing zeros unless `#`.
fn general(a: f64, prec: usize, sharp: bool) -> String {
    let p = prec.max(1);
    let e = format!("{a:.*e}", p - 1);
    let x: i64 = e.split_once('e').and_then(|(_, x)| x.parse().ok()).unwrap_or(0);
    let mut s =
        if x < -4 || x >= p as i64 { exponent(a, p - 1, sharp) } else { fixed(a, (p as i64 - 1 - x) as usize, sharp) };
    if !sharp {
        let (number, exp) = match s.find('e') {
            Some(i) => s.split_at(i),
            None => (s.as_str(), ""),
        };
        if number.contains('.') {
            let number = number.trim_end_matches('0').trim_end_matches('.');
            s = format!("{number}{exp}");
        }
    }
    s
}

/// `%a` after `0x`: a normalized hexadecimal mantissa (`1.8p+0`), rounded
/// to `prec` hex digits, half to even, when there is a precision.
fn hex(a: f64, prec: Option<usize>, sharp: bool) -> String {
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut fraction = bits & ((1 << 52) - 1);
    if raw_exp == 0 && fraction == 0 {
        let digits = "0".repeat(prec.unwrap_or(0));
        let point = if !digits.is_empty() || sharp { "." } else { "" };
        return format!("0{point}{digits}p+0");
    }
    let mut exp = raw_exp - 1023;
    if raw_exp == 0 {
        // A subnormal: shifted until its leading bit is the implicit one.
        let shift = fraction.leading_zeros() as i64 - 11;
        fraction = (fraction << shift) & ((1 << 52) - 1);
        exp = -1022 - shift;
    }
    let mut digits = format!("{fraction:013x}");
    match prec {
        Some(p) if p < 13 => {
            let drop = 4 * (13 - p) as u32;
            let kept = fraction >> drop;
            let rest = fraction & ((1 << drop) - 1);
            let half = 1 << (drop - 1);
            // With no digits kept, the leading 1 is the one rounded to even.
            let odd = p == 0 || kept & 1 == 1;
            let mut kept = kept + u64::from(rest > half || (rest == half && odd));
            if kept >> (4 * p) != 0 {
                // Rounded up into the leading digit: 2.0 is 1.0 a power on.
                kept = 0;
                exp += 1;
            }
            digits = if p == 0 { String::new() } else { format!("{kept:0p$x}") };
        }
        Some(p) => digits.extend(std::iter::repeat_n('0', p - 13)),
        None => digits = digits.trim_end_matches('0').to_string(),
    }
    let point = if !digits.is_empty() || sharp { "." } else { "" };
    format!("1{point}{digits}p{}{}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(fmt: &str) -> Spec {
        match parse(&fmt[1..]) {
            Ok((Some(s), "")) => s,
            other => panic!("{fmt}: {other:?}"),
        }
    }

    // Expectations printed by Ruby 3.1's `format`.
    #[test]
    fn integers_as_ruby_formats_them() {
        let cases: &[(&str, i128, &str)] = &[
            ("%08x", -255, "..ffff01"),
            ("%-8x", -255, "..f01   "),
            ("%8x", -255, "   ..f01"),
            ("%#08x", -255, "0x..ff01"),
            ("%+08x", -255, "-00000ff"),
            ("%.5x", -255, "..f01"),
            ("%08.3d", -255, "    -255"),
            ("% 05d", -255, "-0255"),
            ("%#o", -255, "..7401"),
            ("%08b", -255, "..100000001"),
            ("%#b", -255, "0b..100000001"),
            ("%+#x", -255, "-0xff"),
            ("%#08x", 255, "0x0000ff"),
            ("%.5x", 255, "000ff"),
            ("% 05d", 255, " 0255"),
            ("%#5o", 255, " 0377"),
            ("%.0d", 0, ""),
            ("%#08x", 0, "00000000"),
            ("%#o", 0, "0"),
            ("%#x", 0, "0"),
            ("%+5d", 0, "   +0"),
            ("%.5x", -1, "..fff"),
            ("%08.3d", -1, "    -001"),
            ("%#5o", -1, "  ..7"),
            ("%#b", -1, "0b..1"),
            ("%x", -16, "..f0"),
            ("%x", -8, "..f8"),
            ("%X", -255, "..F01"),
        ];
        for &(fmt, v, want) in cases {
            assert_eq!(int(&spec(fmt), &Int::new(v)), want, "{fmt} of {v}");
        }
        // Past 128 bits, as Ruby formats its integers (checked with Ruby 3.1).
        let pow = |n: u32, minus: bool| {
            let v = Int::from_digits(&format!("1{}", "0".repeat(n as usize)), 2).unwrap();
            if minus {
                v.neg()
            } else {
                v
            }
        };
        assert_eq!(int(&spec("%x"), &pow(100, true)), "..f0000000000000000000000000");
        assert_eq!(int(&spec("%d"), &pow(100, false)), "1267650600228229401496703205376");
        assert_eq!(int(&spec("%+o"), &pow(70, false)), "+200000000000000000000000");
        assert_eq!(
            int(&spec("%#b"), &Int::from_digits("36893488147419103235", 10).unwrap().neg()),
            "0b..1011111111111111111111111111111111111111111111111111111111111111101"
        );
        assert_eq!(int(&spec("%x"), &pow(127, false)), "80000000000000000000000000000000");
    }

    #[test]
    // 3.14159 is not meant as π: Ruby's outputs were taken for it.
    #[allow(clippy::approx_constant)]
    fn floats_as_ruby_formats_them() {
        let cases: &[(&str, f64, &str)] = &[
            ("%.0e", 3.14159, "3e+00"),
            ("%#.0e", 3.14159, "3.e+00"),
            ("%.3g", 3.14159, "3.14"),
            ("%010.3e", 3.14159, "03.142e+00"),
            ("%.2a", 3.14159, "0x1.92p+1"),
            ("%.0a", 3.14159, "0x1p+2"),
            ("%#g", 1e-5, "1.00000e-05"),
            ("%.2a", 1e-5, "0x1.50p-17"),
            ("%20a", 123456789.0, "     0x1.d6f3454p+26"),
            ("%020a", 123456789.0, "0x000001.d6f3454p+26"),
            ("%#a", 0.0, "0x0.p+0"),
            ("%.2a", 0.0, "0x0.00p+0"),
            ("%#g", 0.0, "0.00000"),
            ("%-10.2e", -0.0, "-0.00e+00 "),
            ("%020a", -0.0, "-0x00000000000000p+0"),
            ("%g", 1e20, "1e+20"),
            ("% f", 1e20, " 100000000000000000000.000000"),
            ("%010.3e", f64::INFINITY, "       Inf"),
            ("%+e", f64::NAN, "+NaN"),
            ("%-10.2e", f64::NEG_INFINITY, "-Inf      "),
            ("%a", 5e-324, "0x1p-1074"),
            ("%.2a", 5e-324, "0x1.00p-1074"),
            ("%.0a", 1.5, "0x1p+1"),
            ("%#g", 100.0, "100.000"),
            ("%G", 1e-5, "1E-05"),
            ("%A", 3.14159, "0X1.921F9F01B866EP+1"),
        ];
        for &(fmt, v, want) in cases {
            assert_eq!(float(&spec(fmt), v), want, "{fmt} of {v}");
        }
    }

    #[test]
    fn texts_and_refused_formats_as_ruby_reads_them() {
        assert_eq!(text(&spec("%.2s"), "héllo"), "hé");
        assert_eq!(text(&spec("%-5s"), "ab"), "ab   ");
        assert_eq!(text(&spec("%05s"), "ab"), "   ab");
        assert_eq!(format("%(s", Arg::Str("x")), Err("malformed format string - %(".into()));
        assert_eq!(format("%<s", Arg::Str("x")), Err("malformed name - unmatched parenthesis".into()));
        assert_eq!(format("%\nd", Arg::Int(Int::new(1))), Ok("%\nd".into()));
        assert_eq!(format("%-\nd", Arg::Int(Int::new(1))), Err("invalid format character - %".into()));
        assert_eq!(format("a %d b %% c", Arg::Int(Int::new(1))), Ok("a 1 b % c".into()));
        assert_eq!(format("%d %d", Arg::Int(Int::new(1))), Err("too few arguments".into()));
    }
}
