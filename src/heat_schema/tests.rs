//! The embedded data and the API the rules use.

use super::api::{self, ListFilter, Refusal, TemplateType};
use super::{heat, ConstraintKind, PropertySchema, PropertyType, Status};

fn walk<'a>(
    props: impl Iterator<Item = (&'a String, &'a PropertySchema)>,
    f: &mut dyn FnMut(&str, &PropertySchema),
) {
    for (name, p) in props {
        f(name, p);
        if let Some(s) = &p.schema {
            walk(s.iter(), f);
        }
    }
}

#[test]
fn the_embedded_data_is_heat_27() {
    let h = heat();
    assert_eq!(h.heat_version, "27.0.1");
    let templates: Vec<&str> = h
        .types
        .iter()
        .filter(|(_, t)| t.is_template())
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(
        templates,
        ["AWS::CloudWatch::Alarm", "AWS::RDS::DBInstance"]
    );
    assert_eq!(
        h.types.len(),
        201 + 2,
        "201 plugins and 2 template-backed types"
    );
    let hidden = h
        .types
        .values()
        .filter(|t| t.support_status.is_hidden())
        .count();
    assert_eq!(hidden, 38);
    assert_eq!(h.listed().count(), 165, "what Heat's list API shows");
    assert_eq!(h.registry_order.len(), h.types.len());
    assert!(h.registry_order.iter().all(|n| h.types.contains_key(n)));
    assert_eq!(h.aliases().count(), 6);
    assert!(h.custom_constraints.len() > 60);
}

#[test]
fn every_constraint_has_one_kind_and_nested_schemas_are_well_formed() {
    let mut checked = 0;
    for ty in heat().types.values() {
        walk(ty.properties.iter(), &mut |name, p| {
            for c in &p.constraints {
                assert_eq!(c.kinds(), 1, "{name}: {c:?}");
                checked += 1;
                if let ConstraintKind::Custom(n) = c.kind() {
                    assert!(heat().custom_constraint(n).is_some(), "{n}");
                }
            }
            if let Some(s) = &p.schema {
                match p.kind {
                    PropertyType::List => assert_eq!(s.keys().collect::<Vec<_>>(), ["*"], "{name}"),
                    PropertyType::Map => assert!(!s.contains_key("*"), "{name}"),
                    other => panic!("{name}: a nested schema on a {other}"),
                }
            }
        });
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn lookup_follows_the_default_environment() {
    let h = heat();
    let server = h.lookup("OS::Nova::Server").unwrap();
    assert_eq!(server.name, "OS::Nova::Server");
    assert!(!server.is_alias());
    let alarm = h.lookup("OS::Ceilometer::Alarm").unwrap();
    assert_eq!(
        (alarm.asked, alarm.name),
        ("OS::Ceilometer::Alarm", "OS::Aodh::Alarm")
    );
    assert!(alarm.is_alias());
    let net = h.lookup("OS::Quantum::Net").unwrap();
    assert_eq!(
        net.name, "OS::Neutron::Net",
        "the glob OS::Quantum* -> OS::Neutron*"
    );
    assert!(h.lookup("OS::Quantum::Nope").is_none());
    assert!(h.lookup("OS::Nova::Sever").is_none());
    assert!(h.lookup("OS::TripleO::Controller").is_none());
    let cw = h.lookup("AWS::CloudWatch::Alarm").unwrap();
    assert!(cw.ty.is_template());
    assert!(cw.ty.property("MetricName").unwrap().required);
    let hidden = h.lookup("OS::Glance::Image").unwrap();
    assert!(hidden.ty.support_status.is_hidden());
}

#[test]
fn heat_namespaces_come_from_the_data() {
    let h = heat();
    for yes in [
        "OS::Nova::Sever",
        "OS::Neutron::Prot",
        "OS::Heat::RandomStrin",
        "AWS::Foo::Bar",
        "OS::Quantum::Net",
        "OS::Ceilometer::X",
        "OS::Nova:Server",
        "OS:::Heat::None",
    ] {
        assert!(h.is_heat_namespace(yes), "{yes}");
    }
    for no in [
        "OS::TripleO::Controller",
        "OS::BAD::RandomString",
        "My::Type",
        "OS::Heat",
        "nested.yaml",
    ] {
        assert!(!h.is_heat_namespace(no), "{no}");
    }
    assert!(h.namespaces().contains(&"OS::Nova::".to_owned()));
}

#[test]
fn misspelt_types_get_the_nearest_real_name() {
    let h = heat();
    assert_eq!(h.suggest("OS::Nova::Sever"), Some("OS::Nova::Server"));
    assert_eq!(h.suggest("os::nova::server"), Some("OS::Nova::Server"));
    assert_eq!(
        h.suggest("OS::Neutron::FloatingIp"),
        Some("OS::Neutron::FloatingIP")
    );
    assert_eq!(
        h.suggest("OS::BAD::RandomString"),
        Some("OS::Heat::RandomString")
    );
    assert_eq!(
        h.suggest("OS::Heat::SoftwareDeploymnt"),
        Some("OS::Heat::SoftwareDeployment")
    );
    assert_eq!(h.suggest("Totally::Different"), None);
    assert_eq!(
        h.misspelling_of("OS::Nova:Server"),
        Some("OS::Nova::Server")
    );
    assert_eq!(h.misspelling_of("OS::Nova::Server"), None);
    assert_eq!(h.misspelling_of("OS::Ceilometer::Alarm"), None, "an alias");
    assert_eq!(h.misspelling_of("OS::TripleO::Sever"), None, "not Heat's");
    assert_eq!(h.suggest(""), None);
    // Hidden types are not suggested.
    assert_ne!(h.suggest("OS::Glance::Imag"), Some("OS::Glance::Image"));
}

#[test]
fn properties_attributes_and_support_status() {
    let h = heat();
    let rs = h.lookup("OS::Heat::RandomString").unwrap().ty;
    assert_eq!(rs.class, "RandomString");
    assert_eq!(rs.support_status.version.as_deref(), Some("2014.1"));
    let length = rs.property("length").unwrap();
    assert_eq!(length.kind, PropertyType::Integer);
    assert_eq!(length.default, Some(serde_json::json!(32)));
    match length.constraints[0].kind() {
        ConstraintKind::Range(b) => {
            assert_eq!(
                (b.min.unwrap().as_f64(), b.max.unwrap().as_f64()),
                (1.0, 512.0)
            );
        }
        other => panic!("{other:?}"),
    }
    let sequence = rs.property("sequence").unwrap();
    assert!(sequence.support_status.is_hidden());
    assert!(!sequence.is_shown());
    assert_eq!(
        sequence.support_status.any_message(),
        Some("Use property character_classes.")
    );
    let prev = sequence.support_status.previous_status.as_ref().unwrap();
    assert!(prev.is_deprecated() && !sequence.support_status.is_deprecated());
    assert_eq!(
        (prev.status, prev.version.as_deref()),
        (Status::Deprecated, Some("2014.2"))
    );
    let classes = rs.property("character_classes").unwrap();
    let item = classes.item_schema().unwrap();
    assert_eq!(item.kind, PropertyType::Map);
    assert_eq!(
        item.fields().unwrap().keys().collect::<Vec<_>>(),
        ["class", "min"]
    );
    assert!(rs.property("notprop").is_none());
    assert!(rs.accepts_attribute("value"));
    assert_eq!(
        rs.attribute("value").unwrap().kind.as_deref(),
        Some("string")
    );
    assert!(rs.attribute("notanattr").is_none());
    assert!(rs.accepts_attribute("show"));
    assert!(!rs.accepts_attribute("notanattr"));
    assert_eq!(rs.required_properties().count(), 0);

    let group = h.lookup("OS::Heat::ResourceGroup").unwrap().ty;
    assert!(group.dynamic_attributes);
    assert!(group.accepts_attribute("resource.0.networks"));

    let server = h.lookup("OS::Nova::Server").unwrap().ty;
    assert_eq!(server.required_properties().collect::<Vec<_>>(), ["flavor"]);
    let flavor = server.property("flavor").unwrap();
    assert_eq!(
        flavor.custom_constraints().collect::<Vec<_>>(),
        ["nova.flavor"]
    );
    let class = h.custom_constraint("nova.flavor").unwrap();
    assert!(super::needs_cloud(class));
    assert!(!super::needs_cloud(h.custom_constraint("ip_addr").unwrap()));
    let networks = server.property("networks").unwrap().item_schema().unwrap();
    assert!(networks.fields().unwrap().contains_key("fixed_ip"));

    assert_eq!(Status::from_name("DEPRECATED"), Some(Status::Deprecated));
    assert_eq!(Status::from_name("deprecated"), None);
}

#[test]
fn the_list_follows_heats_registry_and_filters() {
    let h = heat();
    let all = api::list_document(h, &ListFilter::default(), false);
    let names = all["resource_types"].as_array().unwrap();
    assert_eq!(names.len(), 165);
    assert_eq!(names[0], "AWS::AutoScaling::AutoScalingGroup");
    let f = ListFilter {
        name: Some(regex::Regex::new("OS::Nova").unwrap()),
        ..ListFilter::default()
    };
    let nova = api::list_document(h, &f, true);
    let nova = nova["resource_types"].as_array().unwrap();
    assert!(nova.iter().all(|e| e["resource_type"]
        .as_str()
        .unwrap()
        .starts_with("OS::Nova::")));
    assert!(nova[0]["description"].is_string());
    // `re.match`: anchored at the start only.
    let f = ListFilter {
        name: Some(regex::Regex::new("Nova").unwrap()),
        ..ListFilter::default()
    };
    assert_eq!(
        api::list_document(h, &f, false)["resource_types"],
        serde_json::json!([])
    );
    let f = ListFilter {
        support_status: Some(Status::Hidden),
        ..ListFilter::default()
    };
    assert_eq!(
        api::list_document(h, &f, false)["resource_types"],
        serde_json::json!([]),
        "hidden types are never listed"
    );
}

#[test]
fn hidden_and_any_typed_types_are_refused_as_heat_refuses_them() {
    let h = heat();
    let image = h.lookup("OS::Glance::Image").unwrap();
    assert_eq!(api::schema_document(image, false), Err(Refusal::Hidden));
    assert_eq!(
        api::template_document(image, TemplateType::Hot),
        Err(Refusal::Hidden)
    );
    let value = h.lookup("OS::Heat::Value").unwrap();
    assert!(api::schema_document(value, false).is_ok());
    assert_eq!(
        api::template_document(value, TemplateType::Hot),
        Err(Refusal::NoParameterType {
            property: "value".into()
        })
    );
}

#[test]
fn the_data_parser_refuses_unknown_fields() {
    let ok = r#"{"heat_version":"1","types":{},"environment":[],"registry_order":[],"custom_constraints":{}}"#;
    assert!(super::parse(ok).is_ok());
    let extra = ok.replace(r#""types":{}"#, r#""types":{},"new_field":1"#);
    assert!(super::parse(&extra).is_err());
    let ty = r#"{"heat_version":"1","types":{"A::B":{"class":"B","description":"","properties":{"p":{"type":"string","new":1}},"attributes":{}}},"environment":[],"registry_order":[],"custom_constraints":{}}"#;
    let err = super::parse(ty).unwrap_err().to_string();
    assert!(err.contains("unknown field `new`"), "{err}");
}

/// Drift, one way: the Rust model holds every field the generator writes,
/// and writes them back as it does (names, omitted defaults, order): the
/// data file, parsed and serialised again, is the same bytes.
#[test]
fn the_model_round_trips_the_data_file_byte_for_byte() {
    let again = serde_json::to_string(heat()).unwrap();
    let text = super::DATA.strip_suffix('\n').unwrap();
    if again != text {
        let at = again
            .bytes()
            .zip(text.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let from = at.saturating_sub(120);
        panic!(
            "the model and the data differ at byte {at}:\n data:  …{}\n model: …{}",
            &text[from..(at + 120).min(text.len())],
            &again[from..(at + 120).min(again.len())]
        );
    }
}

/// Drift, the other way: what tools/heat-schema/generate.py writes today
/// for a few types (recorded with `--sample`, since CI runs no Python) is
/// what the embedded data holds for them, in the same order.
#[test]
fn the_data_file_is_what_the_generator_writes() {
    let sample: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/heat/resource-types/sample.json")).unwrap();
    let data: serde_json::Value = serde_json::from_str(super::DATA).unwrap();
    assert_eq!(sample["heat_version"], data["heat_version"]);
    let types = sample["types"].as_object().unwrap();
    assert!(types.len() >= 3);
    for (name, entry) in types {
        assert_eq!(
            serde_json::to_string(entry).unwrap(),
            serde_json::to_string(&data["types"][name]).unwrap(),
            "{name}: regenerate the data and the sample together (tools/heat-schema/README.md)"
        );
    }
}
