//! What is at a position of a parsed document, and what it names.

use crate::diag::{Pos, Span};
use crate::node::{Node, Value};

use super::is_environment;

/// What is at a position of a parsed document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// Keys (and list indices) from the root to the node.
    pub path: Vec<String>,
    /// The position is on the key of the last segment, not on its value.
    pub on_key: bool,
    /// The scalar's text, when the node is a scalar.
    pub text: Option<String>,
    /// Where the node (or key) is.
    pub span: Span,
}

fn contains(span: Span, pos: Pos) -> bool {
    span.start <= pos && pos <= span.end
}

/// The deepest key or scalar at `pos` in `root`.
pub(crate) fn locate(root: &Node, pos: Pos) -> Option<Cursor> {
    let mut path = Vec::new();
    let mut node = root;
    loop {
        match &node.value {
            Value::Map(m) => {
                let mut next = None;
                for (k, v) in &m.entries {
                    if contains(k.span, pos) {
                        path.push(k.value.key_text());
                        return Some(Cursor {
                            path,
                            on_key: true,
                            text: Some(k.value.key_text()),
                            span: k.span,
                        });
                    }
                    if contains(v.span, pos) && !matches!(v.value, Value::Null) {
                        next = Some((k.value.key_text(), v));
                    }
                }
                let (key, v) = next?;
                path.push(key);
                node = v;
            }
            Value::Seq(items) => {
                let (i, v) = items
                    .iter()
                    .enumerate()
                    .find(|(_, v)| contains(v.span, pos))?;
                path.push(i.to_string());
                node = v;
            }
            _ => {
                return Some(Cursor {
                    path,
                    on_key: false,
                    text: node.value.scalar_text(),
                    span: node.span,
                })
            }
        }
    }
}

/// What a position names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A parameter (`get_param`, or its declaration).
    Parameter(String),
    /// A resource (`get_resource`, `get_attr`'s first item, `depends_on`,
    /// or its declaration).
    Resource(String),
    /// An attribute of a resource (`get_attr`'s second item).
    Attribute {
        /// The resource.
        resource: String,
        /// The attribute.
        attribute: String,
    },
    /// A file (`get_file`, a registry entry's template).
    File(String),
    /// A resource type (a resource's `type`, a registry key), with the
    /// resource where per-resource entries apply.
    Type {
        /// The type as written.
        name: String,
        /// The resource that has it.
        resource: Option<String>,
    },
    /// A property of a resource.
    Property {
        /// The resource.
        resource: String,
        /// Keys from the property down.
        path: Vec<String>,
    },
}

/// What `cursor` names in `root`.
pub(crate) fn target(root: &Node, cursor: &Cursor) -> Option<Target> {
    let p: Vec<&str> = cursor.path.iter().map(String::as_str).collect();
    let text = cursor.text.clone().unwrap_or_default();
    let env = is_environment(root);
    let last = |n: usize| p.len().checked_sub(n).map(|i| &p[i..]);
    if env {
        return match p.as_slice() {
            ["resource_registry", key] | ["resource_registry", "resources", _, key]
                if cursor.on_key =>
            {
                Some(Target::Type {
                    name: (*key).to_owned(),
                    resource: None,
                })
            }
            ["resource_registry", _] | ["resource_registry", "resources", _, _] => {
                Some(Target::File(text))
            }
            ["parameters" | "parameter_defaults", name] => {
                Some(Target::Parameter((*name).to_owned()))
            }
            _ => None,
        };
    }
    match p.as_slice() {
        ["parameters", name] if cursor.on_key => {
            return Some(Target::Parameter((*name).to_owned()))
        }
        ["resources", name] if cursor.on_key => return Some(Target::Resource((*name).to_owned())),
        ["resources", name, "type"] if !cursor.on_key => {
            return Some(Target::Type {
                name: text,
                resource: Some((*name).to_owned()),
            })
        }
        // A group's member definition (`OS::Heat::ResourceGroup`).
        ["resources", _, "properties", "resource_def", "type"] if !cursor.on_key => {
            return Some(Target::Type {
                name: text,
                resource: None,
            })
        }
        ["resources", _, "depends_on"] | ["resources", _, "depends_on", _] if !cursor.on_key => {
            return Some(Target::Resource(text))
        }
        ["resources", name, "properties", rest @ ..]
            if cursor.on_key && !rest.iter().any(|k| is_function(k)) =>
        {
            return Some(Target::Property {
                resource: (*name).to_owned(),
                path: rest.iter().map(|s| (*s).to_owned()).collect(),
            })
        }
        _ => {}
    }
    if cursor.on_key {
        return None;
    }
    if let Some([f] | [f, "0"]) = last(1).filter(|l| l.len() == 1).or(last(2)) {
        if let Some(t) = function_target(f, &text) {
            return Some(t);
        }
    }
    if let Some([.., "get_attr", "1"]) = last(2).map(|_| p.as_slice()) {
        let mut at = cursor.path.clone();
        at.pop();
        at.push("0".into());
        let resource = node_at(root, &at)?.as_str()?.to_owned();
        return Some(Target::Attribute {
            resource,
            attribute: text,
        });
    }
    None
}

fn function_target(f: &str, text: &str) -> Option<Target> {
    match f {
        "get_param" => Some(Target::Parameter(text.to_owned())),
        "get_resource" | "get_attr" => Some(Target::Resource(text.to_owned())),
        "get_file" => Some(Target::File(text.to_owned())),
        _ => None,
    }
}

fn is_function(key: &str) -> bool {
    crate::eval::tables::FUNCTIONS
        .iter()
        .any(|(f, _, _)| *f == key)
}

fn node_at<'a>(root: &'a Node, path: &[String]) -> Option<&'a Node> {
    let mut node = root;
    for k in path {
        node = match &node.value {
            Value::Map(m) => m.get(k)?,
            Value::Seq(items) => items.get(k.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, parse, T};
    use super::*;

    #[test]
    fn locate_and_target_follow_references() {
        let root = parse(T);
        let c = locate(&root, at(10, 29)).unwrap();
        assert_eq!(
            c.path,
            ["resources", "server", "properties", "flavor", "get_param"]
        );
        assert_eq!(target(&root, &c), Some(Target::Parameter("flavor".into())));
        let c = locate(&root, at(14, 17)).unwrap();
        assert_eq!(target(&root, &c), Some(Target::Resource("server".into())));
        let c = locate(&root, at(16, 36)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Attribute {
                resource: "server".into(),
                attribute: "first_address".into()
            })
        );
        let c = locate(&root, at(8, 12)).unwrap();
        assert_eq!(
            target(&root, &c),
            Some(Target::Type {
                name: "OS::Nova::Server".into(),
                resource: Some("server".into())
            })
        );
        let c = locate(&root, at(11, 8)).unwrap();
        assert!(c.on_key);
        assert_eq!(
            target(&root, &c),
            Some(Target::Property {
                resource: "server".into(),
                path: vec!["image".into()]
            })
        );
        let c = locate(&root, at(19, 28)).unwrap();
        assert_eq!(target(&root, &c), Some(Target::Resource("port".into())));
    }
}
