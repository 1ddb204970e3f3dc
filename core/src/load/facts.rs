//! A node's facts as people have them at hand: `facter -y` or `facter -j`,
//! `puppet facts show`, `puppet facts find` (`{"name": ..., "values": ...}`)
//! or a PuppetDB factset (`{"certname": ..., "facts": {"data": [{"name":
//! ..., "value": ...}]}}`, or a list of them, of which the first is taken).

use crate::value::{Hash, Str, Value};

/// Facts read from a text, with the node and environment it names, if any.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeFacts {
    /// The facts.
    pub facts: Hash,
    /// The node's certname, where the text names one (a factset's
    /// `certname`, `puppet facts find`'s `name`, else the `clientcert` or
    /// `trusted.certname` fact).
    pub certname: Option<String>,
    /// The environment a factset names.
    pub environment: Option<String>,
}

impl NodeFacts {
    /// The node these facts are of: the certname, else the `networking.fqdn`
    /// or `fqdn` fact (what `facter -y` of the node says it is called).
    pub fn node_name(&self) -> Option<String> {
        self.certname.clone().or_else(|| fqdn(&self.facts))
    }
}

/// The node facts alone name: `networking.fqdn`, else `fqdn`.
pub fn fqdn(facts: &Hash) -> Option<String> {
    let text = |v: &Value| Some(v.to_ruby_s()).filter(|s| !s.is_empty());
    let networking = facts.get(&Str("networking")).and_then(Value::as_hash);
    networking.and_then(|n| n.get(&Str("fqdn"))).and_then(text).or_else(|| facts.get(&Str("fqdn")).and_then(text))
}

/// Why a text holds no facts.
#[derive(Clone, Debug, PartialEq)]
pub struct FactsError {
    /// What is wrong, with the line and column where the text does not
    /// read as YAML or JSON.
    pub message: String,
}

impl std::fmt::Display for FactsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FactsError {}

/// Reads facts in any of the shapes the module comment names; an empty
/// text is no facts.
pub fn read(text: &str) -> Result<NodeFacts, FactsError> {
    let fail = |message: String| FactsError { message };
    let value = match text.trim_start().as_bytes().first() {
        None => return Ok(NodeFacts::default()),
        Some(b'{' | b'[') => crate::formats::json::parse(text).map_err(|e| fail(e.message))?,
        _ => match crate::formats::yaml::load(text).map_err(|e| fail(e.message))? {
            Some((v, _)) => v,
            None => return Ok(NodeFacts::default()),
        },
    };
    let value = match value {
        Value::Array(a) => a.first().cloned().unwrap_or(Value::Hash(Hash::default())),
        v => v,
    };
    let Value::Hash(h) = value else {
        return Err(fail("The facts must be a hash: one `name: value` per line.".into()));
    };
    let text_of = |h: &Hash, k: &str| h.get(&Str(k)).map(Value::to_ruby_s);
    let (facts, certname, environment) = match (h.get(&Str("facts")), h.get(&Str("values"))) {
        (Some(facts), _) if h.contains_key(&Str("certname")) => {
            (factset(facts), text_of(&h, "certname"), text_of(&h, "environment"))
        }
        (_, Some(Value::Hash(values))) if h.contains_key(&Str("name")) => (values.clone(), text_of(&h, "name"), None),
        _ => (h, None, None),
    };
    let certname = certname.or_else(|| {
        let trusted = facts.get(&Str("trusted")).and_then(Value::as_hash).and_then(|t| text_of(t, "certname"));
        text_of(&facts, "clientcert").or(trusted)
    });
    Ok(NodeFacts { facts, certname, environment })
}

/// Facts as YAML, the way `facter -y` prints them (no `---`); empty for none.
pub fn to_text(facts: &Hash) -> String {
    if facts.is_empty() {
        return String::new();
    }
    crate::formats::yaml::to_yaml(&Value::Hash(facts.clone())).trim_start_matches("---\n").to_string()
}

/// A factset's facts: `{"data": [{"name", "value"}...]}`, or the list itself.
fn factset(facts: &Value) -> Hash {
    let data = match facts {
        Value::Hash(h) => h.get(&Str("data")).and_then(Value::as_array).map(|a| a.to_vec()).unwrap_or_default(),
        Value::Array(a) => a.to_vec(),
        _ => Vec::new(),
    };
    data.iter()
        .filter_map(|f| {
            let f = f.as_hash()?;
            Some((f.get(&Str("name"))?.clone(), f.get(&Str("value")).cloned().unwrap_or(Value::Undef)))
        })
        .collect()
}

/// The structured fact that replaces a legacy fact, which Facter 4 hides
/// and Puppet 8 no longer gives a node (`include_legacy_facts` is false):
/// `osfamily` is `os.family`, `ipaddress_eth0` is
/// `networking.interfaces.eth0.ip`. `None` for a fact that is not legacy.
/// The names are Facter 4.3's hidden facts (its `schema/facter.yaml`) with
/// the facts they alias, transcribed because they must match Facter's.
pub fn legacy_replacement(name: &str) -> Option<String> {
    if let Some((_, structured)) = LEGACY.iter().find(|(legacy, _)| *legacy == name) {
        return Some(structured.to_string());
    }
    LEGACY_PATTERNS.iter().find_map(|(prefix, suffix, structured)| {
        let middle = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
        // `processor0`, `sshrsakey`: not `processors` or `ssh_host_key`.
        let fits = match *prefix {
            "processor" => middle.bytes().all(|b| b.is_ascii_digit()),
            "ssh" => middle.bytes().all(|b| b.is_ascii_alphanumeric()),
            _ => true,
        };
        let fits = fits && !middle.is_empty();
        fits.then(|| structured.replace("<>", middle))
    })
}

/// Legacy facts by name, and their structured facts.
const LEGACY: [(&str, &str); 82] = [
    ("architecture", "os.architecture"),
    ("augeasversion", "augeas.version"),
    ("blockdevices", "disks"),
    ("bios_release_date", "dmi.bios.release_date"),
    ("bios_vendor", "dmi.bios.vendor"),
    ("bios_version", "dmi.bios.version"),
    ("boardassettag", "dmi.board.asset_tag"),
    ("boardmanufacturer", "dmi.board.manufacturer"),
    ("boardproductname", "dmi.board.product"),
    ("boardserialnumber", "dmi.board.serial_number"),
    ("chassisassettag", "dmi.chassis.asset_tag"),
    ("chassistype", "dmi.chassis.type"),
    ("dhcp_servers", "networking.dhcp"),
    ("domain", "networking.domain"),
    ("fqdn", "networking.fqdn"),
    ("gid", "identity.group"),
    ("hardwareisa", "processors.isa"),
    ("hardwaremodel", "os.hardware"),
    ("hostname", "networking.hostname"),
    ("id", "identity.user"),
    ("interfaces", "networking.interfaces"),
    ("ipaddress", "networking.ip"),
    ("ipaddress6", "networking.ip6"),
    ("lsbdistcodename", "os.distro.codename"),
    ("lsbdistdescription", "os.distro.description"),
    ("lsbdistid", "os.distro.id"),
    ("lsbdistrelease", "os.distro.release.full"),
    ("lsbmajdistrelease", "os.distro.release.major"),
    ("lsbminordistrelease", "os.distro.release.minor"),
    ("lsbrelease", "os.distro.specification"),
    ("macaddress", "networking.mac"),
    ("macosx_buildversion", "os.macosx.build"),
    ("macosx_productname", "os.macosx.product"),
    ("macosx_productversion", "os.macosx.version.full"),
    ("macosx_productversion_major", "os.macosx.version.major"),
    ("macosx_productversion_minor", "os.macosx.version.minor"),
    ("macosx_productversion_patch", "os.macosx.version.patch"),
    ("manufacturer", "dmi.manufacturer"),
    ("memoryfree", "memory.system.available"),
    ("memoryfree_mb", "memory.system.available_bytes"),
    ("memorysize", "memory.system.total"),
    ("memorysize_mb", "memory.system.total_bytes"),
    ("netmask", "networking.netmask"),
    ("netmask6", "networking.netmask6"),
    ("network", "networking.network"),
    ("network6", "networking.network6"),
    ("operatingsystem", "os.name"),
    ("operatingsystemmajrelease", "os.release.major"),
    ("operatingsystemrelease", "os.release.full"),
    ("osfamily", "os.family"),
    ("physicalprocessorcount", "processors.physicalcount"),
    ("processorcount", "processors.count"),
    ("productname", "dmi.product.name"),
    ("rubyplatform", "ruby.platform"),
    ("rubysitedir", "ruby.sitedir"),
    ("rubyversion", "ruby.version"),
    ("scope6", "networking.scope6"),
    ("selinux", "os.selinux.enabled"),
    ("selinux_config_mode", "os.selinux.config_mode"),
    ("selinux_config_policy", "os.selinux.config_policy"),
    ("selinux_current_mode", "os.selinux.current_mode"),
    ("selinux_enforced", "os.selinux.enforced"),
    ("selinux_policyversion", "os.selinux.policy_version"),
    ("serialnumber", "dmi.product.serial_number"),
    ("swapencrypted", "memory.swap.encrypted"),
    ("swapfree", "memory.swap.available"),
    ("swapfree_mb", "memory.swap.available_bytes"),
    ("swapsize", "memory.swap.total"),
    ("swapsize_mb", "memory.swap.total_bytes"),
    ("system32", "os.windows.system32"),
    ("uptime", "system_uptime.uptime"),
    ("uptime_days", "system_uptime.days"),
    ("uptime_hours", "system_uptime.hours"),
    ("uptime_seconds", "system_uptime.seconds"),
    ("uuid", "dmi.product.uuid"),
    ("windows_edition_id", "os.windows.edition_id"),
    ("windows_installation_type", "os.windows.installation_type"),
    ("windows_product_name", "os.windows.product_name"),
    ("windows_release_id", "os.windows.release_id"),
    ("xendomains", "xen.domains"),
    ("zonename", "solaris_zones.current"),
    ("zones", "solaris_zones.zones"),
];

/// Legacy facts named after a device, interface or zone (`<>` in the
/// structured fact is that name): prefix, suffix, structured fact.
const LEGACY_PATTERNS: [(&str, &str, &str); 24] = [
    ("blockdevice_", "_model", "disks.<>.model"),
    ("blockdevice_", "_size", "disks.<>.size_bytes"),
    ("blockdevice_", "_vendor", "disks.<>.vendor"),
    ("ipaddress6_", "", "networking.interfaces.<>.ip6"),
    ("ipaddress_", "", "networking.interfaces.<>.ip"),
    ("ldom_", "", "ldom.<>"),
    ("macaddress_", "", "networking.interfaces.<>.mac"),
    ("mtu_", "", "networking.interfaces.<>.mtu"),
    ("netmask6_", "", "networking.interfaces.<>.netmask6"),
    ("netmask_", "", "networking.interfaces.<>.netmask"),
    ("network6_", "", "networking.interfaces.<>.network6"),
    ("network_", "", "networking.interfaces.<>.network"),
    ("processor", "", "processors.models.<>"),
    ("scope6_", "", "networking.interfaces.<>.scope6"),
    ("sp_", "", "system_profiler.<>"),
    ("sshfp_", "", "ssh.<>.fingerprints"),
    ("ssh", "key", "ssh.<>.key"),
    ("zone_", "_brand", "solaris_zones.zones.<>.brand"),
    ("zone_", "_id", "solaris_zones.zones.<>.id"),
    ("zone_", "_iptype", "solaris_zones.zones.<>.ip_type"),
    ("zone_", "_name", "solaris_zones.zones.<>.name"),
    ("zone_", "_path", "solaris_zones.zones.<>.path"),
    ("zone_", "_status", "solaris_zones.zones.<>.status"),
    ("zone_", "_uuid", "solaris_zones.zones.<>.uuid"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn os_family(n: &NodeFacts) -> Option<String> {
        n.facts.get(&Str("os"))?.as_hash()?.get(&Str("family")).map(Value::to_ruby_s)
    }

    #[test]
    fn reads_facter_puppet_and_puppetdb_shapes() {
        let facter = read("os:\n  family: Debian\nclientcert: web01.example.com\n").unwrap();
        assert_eq!(
            (os_family(&facter).as_deref(), facter.certname.as_deref()),
            (Some("Debian"), Some("web01.example.com"))
        );
        let json = read(r#"{"os": {"family": "RedHat"}, "trusted": {"certname": "db01"}}"#).unwrap();
        assert_eq!((os_family(&json).as_deref(), json.certname.as_deref()), (Some("RedHat"), Some("db01")));
        let find = read(r#"{"name": "app01", "values": {"os": {"family": "windows"}}, "timestamp": "x"}"#).unwrap();
        assert_eq!((os_family(&find).as_deref(), find.certname.as_deref()), (Some("windows"), Some("app01")));
        let factset = r#"[{"certname": "pdb01", "environment": "staging", "facts": {"data": [{"name": "os", "value": {"family": "FreeBSD"}}, {"name": "role", "value": "db"}], "href": "/pdb"}}]"#;
        let pdb = read(factset).unwrap();
        assert_eq!((os_family(&pdb).as_deref(), pdb.certname.as_deref()), (Some("FreeBSD"), Some("pdb01")));
        assert_eq!((pdb.environment.as_deref(), pdb.facts.len()), (Some("staging"), 2));
        assert_eq!(read("  \n").unwrap(), NodeFacts::default());
        assert_eq!(read(&to_text(&facter.facts)).unwrap().facts, facter.facts);
    }

    #[test]
    fn a_node_is_named_by_its_certname_else_its_fully_qualified_name() {
        let name = |text: &str| read(text).unwrap().node_name();
        assert_eq!(name("networking:\n  fqdn: web03.example.com\nfqdn: old\n").as_deref(), Some("web03.example.com"));
        assert_eq!(name("fqdn: web04.example.com\n").as_deref(), Some("web04.example.com"));
        assert_eq!(name("clientcert: c\nnetworking:\n  fqdn: f\n").as_deref(), Some("c"));
        assert_eq!(name("os:\n  family: Debian\n"), None);
    }

    #[test]
    fn says_where_a_text_does_not_read() {
        assert_eq!(read("- a\n").unwrap_err().message, "The facts must be a hash: one `name: value` per line.");
        assert!(read("os: [\n").unwrap_err().message.contains("at line"), "a position");
        assert!(read("{\"os\": }").unwrap_err().message.contains("unexpected token"));
    }

    #[test]
    fn legacy_facts_and_their_structured_facts() {
        for (legacy, structured) in [
            ("osfamily", "os.family"),
            ("operatingsystemmajrelease", "os.release.major"),
            ("ipaddress_eth0", "networking.interfaces.eth0.ip"),
            ("ipaddress6_eth0", "networking.interfaces.eth0.ip6"),
            ("blockdevice_sda_size", "disks.sda.size_bytes"),
            ("processor0", "processors.models.0"),
            ("sshed25519key", "ssh.ed25519.key"),
            ("zone_global_status", "solaris_zones.zones.global.status"),
        ] {
            assert_eq!(legacy_replacement(legacy).as_deref(), Some(structured), "{legacy}");
        }
        for structured in ["os", "networking", "processors", "ssh", "role", "trusted", "environment", "clientcert"] {
            assert_eq!(legacy_replacement(structured), None, "{structured}");
        }
    }

    /// Every fact Facter 4.3.0's `schema/facter.yaml` marks `hidden: true`
    /// (its legacy facts), with a device, interface or zone in `<...>`.
    #[test]
    fn every_fact_facter_hides_is_legacy() {
        let missing: Vec<&str> = HIDDEN.iter().copied().filter(|n| legacy_replacement(n).is_none()).collect();
        assert!(missing.is_empty(), "{missing:?}");
    }

    const HIDDEN: &[&str] = &[
        "architecture",
        "augeasversion",
        "blockdevices",
        "blockdevice_sda_model",
        "blockdevice_sda_size",
        "blockdevice_sda_vendor",
        "bios_release_date",
        "bios_vendor",
        "bios_version",
        "boardassettag",
        "boardmanufacturer",
        "boardproductname",
        "boardserialnumber",
        "chassisassettag",
        "chassistype",
        "dhcp_servers",
        "domain",
        "fqdn",
        "gid",
        "hardwareisa",
        "hardwaremodel",
        "hostname",
        "id",
        "interfaces",
        "ipaddress",
        "ipaddress6",
        "ipaddress6_eth0",
        "ipaddress_eth0",
        "ldom_x",
        "lsbdistcodename",
        "lsbdistdescription",
        "lsbdistid",
        "lsbdistrelease",
        "lsbmajdistrelease",
        "lsbminordistrelease",
        "lsbrelease",
        "macaddress",
        "macaddress_eth0",
        "macosx_buildversion",
        "macosx_productname",
        "macosx_productversion",
        "macosx_productversion_major",
        "macosx_productversion_minor",
        "macosx_productversion_patch",
        "manufacturer",
        "memoryfree",
        "memoryfree_mb",
        "memorysize",
        "memorysize_mb",
        "mtu_eth0",
        "netmask",
        "netmask6",
        "netmask6_eth0",
        "netmask_eth0",
        "network",
        "network6",
        "network6_eth0",
        "network_eth0",
        "operatingsystem",
        "operatingsystemmajrelease",
        "operatingsystemrelease",
        "osfamily",
        "physicalprocessorcount",
        "processor0",
        "processorcount",
        "productname",
        "rubyplatform",
        "rubysitedir",
        "rubyversion",
        "scope6",
        "scope6_eth0",
        "selinux",
        "selinux_config_mode",
        "selinux_config_policy",
        "selinux_current_mode",
        "selinux_enforced",
        "selinux_policyversion",
        "serialnumber",
        "sp_x",
        "sshrsakey",
        "sshfp_rsa",
        "swapencrypted",
        "swapfree",
        "swapfree_mb",
        "swapsize",
        "swapsize_mb",
        "windows_edition_id",
        "windows_installation_type",
        "windows_product_name",
        "windows_release_id",
        "system32",
        "uptime",
        "uptime_days",
        "uptime_hours",
        "uptime_seconds",
        "uuid",
        "xendomains",
        "zone_x_brand",
        "zone_x_iptype",
        "zone_x_name",
        "zone_x_uuid",
        "zone_x_id",
        "zone_x_path",
        "zone_x_status",
        "zonename",
        "zones",
    ];
}
