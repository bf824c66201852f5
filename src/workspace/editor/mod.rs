//! What an editor asks about one open file (`heatcap lsp`): what is at a
//! position, where it is defined, what to say about it, what may be typed
//! there, and the file's outline. The answers are plain data with
//! heatcap's positions (1-based lines, columns in characters); the
//! language server only converts them to the protocol's.
//!
//! Positions in a parsed tree come from [`locate`]; completion reads the
//! text around the cursor ([`context`]), because a half-typed buffer often
//! does not parse.
//!
//! One file a question: `locate` (what is at a position), `definition`
//! (where it is defined), `hover` (what to say about it), `completion`
//! (what may be typed there), `outline` (the file's outline).

use std::path::{Path, PathBuf};

use crate::heat_schema::PropertySchema;
use crate::node::Node;

mod completion;
mod definition;
mod hover;
mod locate;
mod outline;

// What the language server names; the answers' other types (`Cursor`,
// `Place`, `Completion`, ...) it only receives.
pub(crate) use completion::{completions, context, project_dir, wants_tree, Tree};
pub(crate) use definition::definition;
pub(crate) use hover::{hover, wants_composition, Composed};
pub(crate) use locate::{locate, target, Target};
pub(crate) use outline::{symbols, Symbol};

/// An environment file rather than a template (no `heat_template_version`).
pub(crate) fn is_environment(root: &Node) -> bool {
    root.as_map().is_some_and(|m| {
        !m.contains_key("heat_template_version")
            && !m.contains_key("HeatTemplateFormatVersion")
            && !m.contains_key("AWSTemplateFormatVersion")
    })
}

/// The directory paths in `file` are relative to.
fn dir_of(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}

fn is_template_name(name: &str) -> bool {
    !name.contains("::") && crate::model::registry::is_template_path(name)
}

fn json_text(v: &serde_json::Value) -> String {
    crate::encode::json::to_string(v)
}

/// The schema at `rest` below `schema` (map fields by name, list items by
/// any index).
fn property_schema<'a>(schema: &'a PropertySchema, rest: &[String]) -> Option<&'a PropertySchema> {
    let mut s = schema;
    for k in rest {
        s = if k.parse::<usize>().is_ok() {
            s.item_schema()?
        } else {
            s.fields()
                .or_else(|| s.item_schema().and_then(PropertySchema::fields))?
                .get(k)?
        };
    }
    Some(s)
}

/// The replacement a did-you-mean finding (E3008, E3011, ...) proposes,
/// read from its message (`...; did you mean `X`?`).
pub(crate) fn suggestion(message: &str) -> Option<&str> {
    let rest = message.split("did you mean `").nth(1)?;
    rest.split('`').next().filter(|s| !s.is_empty())
}

/// The questions that cross files (a target, then its definition and
/// hover), and the documents every question's tests read.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;
    use crate::vfs::FileOverlay;

    pub(super) fn parse(text: &str) -> Node {
        crate::load::parse_text(text, "t.yaml", &crate::load::ParseOptions::default())
            .root
            .unwrap()
    }

    pub(super) const T: &str = "heat_template_version: 2016-10-14
parameters:
  flavor:
    type: string
    default: m1.small
resources:
  server:
    type: OS::Nova::Server
    properties:
      flavor: {get_param: flavor}
      image: cirros
  port:
    type: OS::Neutron::Port
    depends_on: server
    properties:
      network: {get_attr: [server, first_address]}
outputs:
  ip:
    value: {get_resource: port}
";

    pub(super) fn at(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    #[test]
    fn a_group_members_type_is_a_type() {
        let root = parse("heat_template_version: 2016-10-14\nresources:\n  g:\n    type: OS::Heat::ResourceGroup\n    properties:\n      resource_def:\n        type: OS::TripleO::Controller\n");
        let c = locate(&root, at(7, 20)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Type {
                name: "OS::TripleO::Controller".into(),
                resource: None
            })
        );
        // Without environments a custom type goes nowhere, and says why.
        let t = target(&root, &c).unwrap();
        assert!(definition(
            &FileOverlay::default(),
            None,
            Path::new("t.yaml"),
            &root,
            &t
        )
        .is_empty());
        let h = hover(None, None, Path::new("t.yaml"), &root, &t).unwrap();
        assert!(h.contains("name the environments"), "{h}");
    }

    #[test]
    fn definition_and_hover_within_a_file() {
        let root = parse(T);
        let file = Path::new("t.yaml");
        let d = definition(
            &FileOverlay::default(),
            None,
            file,
            &root,
            &Target::Parameter("flavor".into()),
        );
        assert_eq!(d[0].span.unwrap().start, at(3, 3));
        let d = definition(
            &FileOverlay::default(),
            None,
            file,
            &root,
            &Target::Resource("port".into()),
        );
        assert_eq!(d[0].span.unwrap().start, at(12, 3));
        let h = hover(None, None, file, &root, &Target::Parameter("flavor".into())).unwrap();
        assert!(h.contains("`\"m1.small\"`, the default (line 5)"), "{h}");
        let h = hover(
            None,
            None,
            file,
            &root,
            &Target::Property {
                resource: "server".into(),
                path: vec!["flavor".into()],
            },
        )
        .unwrap();
        assert!(
            h.starts_with("**flavor** (string, required) of `OS::Nova::Server`"),
            "{h}"
        );
        let h = hover(
            None,
            None,
            file,
            &root,
            &Target::Type {
                name: "OS::Nova::Server".into(),
                resource: None,
            },
        )
        .unwrap();
        assert!(
            h.contains("Required properties: `flavor`, `image`")
                || h.contains("Required properties: `flavor`"),
            "{h}"
        );
    }

    #[test]
    fn suggestions_are_read_from_messages() {
        assert_eq!(
            suggestion("`flavr` is not a property of `OS::Nova::Server`; did you mean `flavor`?"),
            Some("flavor")
        );
        assert_eq!(suggestion("no hint"), None);
    }
}
