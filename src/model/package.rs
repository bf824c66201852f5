//! What a file is in an ONAP VNF package (the ONAP profile classifies;
//! the validate report lists it).

/// What a file of a VNF package is, as ONAP tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ModuleKind {
    /// The base module (`base_*`).
    Base,
    /// An incremental module.
    Incremental,
    /// A volume module (`*_volume`).
    Volume,
    /// Named as a resource type by another template of the package.
    Nested,
    /// A `.env` file.
    Environment,
    /// Neither YAML template nor `.env` (a `.json` template, say): the ONAP
    /// rules leave it alone.
    Other,
}

impl ModuleKind {
    /// How messages name it.
    pub fn as_str(self) -> &'static str {
        match self {
            ModuleKind::Base => "base module",
            ModuleKind::Incremental => "incremental module",
            ModuleKind::Volume => "volume module",
            ModuleKind::Nested => "nested template",
            ModuleKind::Environment => "environment file",
            ModuleKind::Other => "other file",
        }
    }

    /// A template ONAP checks (every `.yaml`/`.yml` file).
    pub fn is_template(self) -> bool {
        matches!(
            self,
            ModuleKind::Base | ModuleKind::Incremental | ModuleKind::Volume | ModuleKind::Nested
        )
    }
}
