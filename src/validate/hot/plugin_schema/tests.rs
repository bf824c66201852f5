use super::*;

#[test]
fn heat_paths_put_digits_in_brackets() {
    let p = |items: &[&str]| heat_path(&items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
    assert_eq!(
        p(&["resources", "r", "properties", "fixed_ips", "0", "subnet"]),
        "resources.r.properties.fixed_ips[0].subnet"
    );
    assert_eq!(
        p(&[
            "resources",
            "g<nested_stack>",
            "resources",
            "0",
            "properties"
        ]),
        "resources.g<nested_stack>.resources[0].properties"
    );
}

/// A constraint with no kind (a template's `{description: ...}` alone)
/// is no constraint to check a value against, and never a panic.
#[test]
fn constraints_without_a_kind_are_left_out() {
    let c = serde_json::json!([{"description": "only words"}, {"length": {"max": 2}}]);
    assert_eq!(
        parameter_violation("string", &c, &serde_json::json!("abc")).as_deref(),
        Some("length (3) is out of range (min: None, max: 2)")
    );
    let alone = serde_json::json!([{"description": "only words"}]);
    assert_eq!(
        parameter_violation("string", &alone, &serde_json::json!("abc")),
        None
    );
}
