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
