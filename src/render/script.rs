//! Which of `tools/process-templates.py`'s rules a tree follows, read from
//! the tree's own copy of the script (docs/design.md, "Rendering"
//! lists each rule with the commit that brought it). A tree without the
//! script follows the last revision's rules.

/// The rules of one revision of `tools/process-templates.py`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // one flag per rule of the script
pub(crate) struct ScriptRules {
    /// `-r`'s default, relative to the tree.
    pub roles_data: String,
    /// `-n`'s default (a417, 2017-04: network data support), relative to
    /// the tree; `None` before networks.
    pub network_data: Option<String>,
    /// `*.network.j2.yaml` rendered once per enabled network (6d68ce08e).
    pub network_templates: bool,
    /// Role templates get the role's map when the source contains
    /// `{{role.name}}`, else its name (6a2f8bd50); before, always the name.
    pub role_map_test: bool,
    /// Role templates also get `networks` (566a40b14).
    pub role_networks: bool,
    /// `disable_constraints: True` for roles that set it, when the role is
    /// given by name (until fe266d120).
    pub disable_constraints: bool,
    /// NIC configs (`network/config` in the path) named `<role>.yaml`
    /// (1dec17524)...
    pub nic_config_names: bool,
    /// ...or the role's `deprecated_nic_config_name` (until f1cf81eec).
    pub deprecated_nic_config_name: bool,
    /// `j2_excludes.yaml` must exist (until 435e84677).
    pub excludes_required: bool,
    /// An empty network data file is `[]` (53027484a); before, a crash.
    pub empty_network_data: bool,
    /// Roles get `compute`, `ceph`, `ovsdpdk`, `storage` tags from their
    /// names (ff4d1fbb6).
    pub role_tags: bool,
    /// Every network gets `idx`, its position (2d0125ed4).
    pub network_idx: bool,
    /// Hidden files and directories are skipped (5fbe0c524).
    pub skip_hidden: bool,
    /// `-o` copies `*.j2` include files too (e6946bc5f).
    pub copy_j2_includes: bool,
}

impl ScriptRules {
    /// The last revision's rules (1393d39b, 2023), for a tree without the
    /// script.
    pub(crate) fn latest() -> ScriptRules {
        ScriptRules {
            roles_data: "roles_data.yaml".into(),
            network_data: Some("network-data-samples/default-network-isolation.yaml".into()),
            network_templates: true,
            role_map_test: true,
            role_networks: true,
            disable_constraints: false,
            nic_config_names: true,
            deprecated_nic_config_name: false,
            excludes_required: false,
            empty_network_data: true,
            role_tags: true,
            network_idx: true,
            skip_hidden: true,
            copy_j2_includes: true,
        }
    }

    /// The rules of the script whose text is `script`, each recognised by
    /// the code that implements it.
    pub(crate) fn from_script(script: &str) -> ScriptRules {
        let has = |s: &str| script.contains(s);
        let network_data = has("--network-data").then(|| {
            option_default(script, "--network-data").unwrap_or_else(|| "network_data.yaml".into())
        });
        let role_map_test = has("'{{role.name}}' in template_data");
        ScriptRules {
            roles_data: option_default(script, "--roles-data")
                .unwrap_or_else(|| "roles_data.yaml".into()),
            network_templates: has(".network.j2.yaml"),
            role_networks: network_data.is_some()
                && script.matches("'networks': network_data").count() >= 2,
            network_data,
            role_map_test,
            disable_constraints: has("disable_constraints"),
            nic_config_names: has("'network/config' in file_path"),
            deprecated_nic_config_name: has("deprecated_nic_config_name"),
            excludes_required: !has("os.path.exists(j2_excludes_path)"),
            empty_network_data: has("if network_data is None"),
            role_tags: has("_set_tags_based_on_role_name"),
            network_idx: has("{'idx': idx}"),
            skip_hidden: has("d[0] == '.'"),
            copy_j2_includes: has("f.endswith('.j2') and output_dir"),
        }
    }
}

/// The `default='...'` of the `add_argument` call that names `flag`.
fn option_default(script: &str, flag: &str) -> Option<String> {
    let at = script.find(&format!("'{flag}'"))?;
    let call = &script[at..];
    let call = &call[..call.find("add_argument").unwrap_or(call.len())];
    let d = call.find("default=")?;
    let rest = &call[d + "default=".len()..];
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &rest[1..];
    Some(body[..body.find(quote)?].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_defaults_are_read_from_the_argument_parser() {
        let script = "parser.add_argument('-n', '--network-data', metavar='N',\n    help=(\"\"\"x\"\"\"),\n    default='network-data-samples/default-network-isolation.yaml')";
        assert_eq!(
            option_default(script, "--network-data").as_deref(),
            Some("network-data-samples/default-network-isolation.yaml")
        );
        assert_eq!(option_default(script, "--roles-data"), None);
    }
}
