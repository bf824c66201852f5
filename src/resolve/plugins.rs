//! Heat's built-in resource types (temporary stub; replaced by the full list).

/// Built-in plugin types, sorted.
pub(crate) const PLUGIN_TYPES: &[&str] = &[
    "OS::Heat::CloudConfig",
    "OS::Heat::MultipartMime",
    "OS::Heat::None",
    "OS::Heat::RandomString",
    "OS::Heat::ResourceChain",
    "OS::Heat::ResourceGroup",
    "OS::Heat::SoftwareConfig",
    "OS::Heat::SoftwareDeployment",
    "OS::Heat::StructuredConfig",
    "OS::Heat::StructuredDeployment",
    "OS::Heat::StructuredDeploymentGroup",
    "OS::Heat::StructuredDeployments",
    "OS::Neutron::Net",
    "OS::Neutron::Port",
    "OS::Neutron::Subnet",
    "OS::Nova::Server",
];

/// The resource_registry of Heat's shipped global environment.
pub(crate) const DEFAULT_GLOBAL_ENVIRONMENT: &[(&str, &str)] = &[("OS::Quantum*", "OS::Neutron*")];

/// True when Heat itself provides `type_name`.
pub(crate) fn is_plugin(type_name: &str) -> bool {
    PLUGIN_TYPES.binary_search(&type_name).is_ok()
}
