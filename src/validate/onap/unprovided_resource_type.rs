//! E8023 `UnprovidedResourceType`.
//!
//! Its catalogue entry (`META`) says what it checks, why, and gives an
//! example; `docs/rules.md` and `heatcap rules` print it.

use crate::diag::{Code, Diagnostic};
use crate::heat_schema;
use crate::model::registry::is_template_path;
use crate::model::FileRecord;
use crate::validate::onap::{OnapContext, OnapRule};
use crate::validate::{MappedTypes, RuleMeta};

pub(crate) struct UnprovidedResourceType;

static META: RuleMeta = RuleMeta {
    code: Code("E8023"),
    name: "UnprovidedResourceType",
    summary: "a resource type neither Heat 27.0.1 nor the package provides (a nested template or an environment's mapping); the nearest Heat type is suggested",
    what: "Every resource type (and `ResourceGroup` `resource_def` type) of a package's templates is a type of Heat 27.0.1 (or an alias of its default environment), a nested template file of the package (`.yaml`, `.yml`, `.template`), or a type one of the package's environment files maps. URL types are E8016's. It replaces E3008 under the ONAP profile, which reports only types in Heat's own namespaces.",
    why: "A VNF package is onboarded as it is, with no environment of the operator's to map custom types (R-67231 forbids `resource_registry` in its environment files), so Heat would refuse the template: \"The Resource Type (T) could not be found.\" ONAP's own validation scripts test this with `OS::BAD::RandomString`.",
    example: "`type: OS::BAD::RandomString` (did you mean `OS::Heat::RandomString`?).",
    source: "ONAP R-92635 (VNF requirements 5.2.2), R-67231 (VNF requirements 5.2.2.2)",
};

impl OnapRule for UnprovidedResourceType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn replaces(&self) -> &'static [Code] {
        &[Code("E3008")]
    }

    fn check(&self, cx: &OnapContext<'_>, out: &mut Vec<Diagnostic>) {
        let types = cx.resource_types();
        if types.is_empty() {
            return;
        }
        let heat = heat_schema::heat();
        let mapped = MappedTypes::of(
            cx.package
                .files
                .iter()
                .filter_map(|f| FileRecord::environment(f.record)),
        );
        for (id, t) in types {
            let Some(name) = t.as_str() else { continue };
            if is_file(name)
                || name.contains("://")
                || mapped.maps(name)
                || heat.lookup(name).is_some()
            {
                continue;
            }
            let hint = heat
                .suggest(name)
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            out.push(cx.finding(
                &META,
                Some(t.span),
                format!(
                    "resource `{id}`: `{name}` is neither a resource type of Heat {} nor provided by the package{hint} (Heat: The Resource Type ({name}) could not be found.)",
                    heat.heat_version
                ),
            ));
        }
    }
}

/// A nested template: a path Heat uses directly, or a `.yml` file ONAP
/// takes for one (its nesting rules read the extension, any case aside).
fn is_file(name: &str) -> bool {
    is_template_path(name)
        || std::path::Path::new(name)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"))
}
