//! Heat's built-in resource types (its global registry), taken from
//! openstack/heat at commit 526defd06ece8156ede431615fd3c5eb8412714d
//! (2026-08-21): every string key of the dictionaries returned by
//! `resource_mapping()` and `available_resource_mapping()` in
//! heat/engine/resources/**.py (201 types; `available_*` ones are
//! registered when their client library is installed, the normal case), and
//! the `resource_registry` of the shipped etc/heat/environment.d/default.yaml.
//! docs/design.md says how to regenerate it.

/// Built-in plugin types, sorted.
pub(crate) const PLUGIN_TYPES: &[&str] = &[
    "AWS::AutoScaling::AutoScalingGroup",
    "AWS::AutoScaling::LaunchConfiguration",
    "AWS::AutoScaling::ScalingPolicy",
    "AWS::CloudFormation::Stack",
    "AWS::CloudFormation::WaitCondition",
    "AWS::CloudFormation::WaitConditionHandle",
    "AWS::EC2::EIP",
    "AWS::EC2::EIPAssociation",
    "AWS::EC2::Instance",
    "AWS::EC2::InternetGateway",
    "AWS::EC2::NetworkInterface",
    "AWS::EC2::RouteTable",
    "AWS::EC2::SecurityGroup",
    "AWS::EC2::Subnet",
    "AWS::EC2::SubnetRouteTableAssociation",
    "AWS::EC2::VPC",
    "AWS::EC2::VPCGatewayAttachment",
    "AWS::EC2::Volume",
    "AWS::EC2::VolumeAttachment",
    "AWS::ElasticLoadBalancing::LoadBalancer",
    "AWS::IAM::AccessKey",
    "AWS::IAM::User",
    "AWS::S3::Bucket",
    "OS::Aodh::Alarm",
    "OS::Aodh::CombinationAlarm",
    "OS::Aodh::CompositeAlarm",
    "OS::Aodh::EventAlarm",
    "OS::Aodh::GnocchiAggregationByMetricsAlarm",
    "OS::Aodh::GnocchiAggregationByResourcesAlarm",
    "OS::Aodh::GnocchiResourcesAlarm",
    "OS::Aodh::LBMemberHealthAlarm",
    "OS::Aodh::PrometheusAlarm",
    "OS::Barbican::CertificateContainer",
    "OS::Barbican::GenericContainer",
    "OS::Barbican::Order",
    "OS::Barbican::RSAContainer",
    "OS::Barbican::Secret",
    "OS::Blazar::Host",
    "OS::Blazar::Lease",
    "OS::Cinder::EncryptedVolumeType",
    "OS::Cinder::QoSAssociation",
    "OS::Cinder::QoSSpecs",
    "OS::Cinder::Quota",
    "OS::Cinder::Volume",
    "OS::Cinder::VolumeAttachment",
    "OS::Cinder::VolumeType",
    "OS::Designate::Domain",
    "OS::Designate::Record",
    "OS::Designate::RecordSet",
    "OS::Designate::Zone",
    "OS::Glance::Image",
    "OS::Glance::WebImage",
    "OS::Heat::AccessPolicy",
    "OS::Heat::AutoScalingGroup",
    "OS::Heat::CloudConfig",
    "OS::Heat::Delay",
    "OS::Heat::DeployedServer",
    "OS::Heat::HARestarter",
    "OS::Heat::InstanceGroup",
    "OS::Heat::MultipartMime",
    "OS::Heat::None",
    "OS::Heat::RandomString",
    "OS::Heat::ResourceChain",
    "OS::Heat::ResourceGroup",
    "OS::Heat::ScalingPolicy",
    "OS::Heat::SoftwareComponent",
    "OS::Heat::SoftwareConfig",
    "OS::Heat::SoftwareDeployment",
    "OS::Heat::SoftwareDeploymentGroup",
    "OS::Heat::SoftwareDeployments",
    "OS::Heat::Stack",
    "OS::Heat::StructuredConfig",
    "OS::Heat::StructuredDeployment",
    "OS::Heat::StructuredDeploymentGroup",
    "OS::Heat::StructuredDeployments",
    "OS::Heat::SwiftSignal",
    "OS::Heat::SwiftSignalHandle",
    "OS::Heat::TestResource",
    "OS::Heat::UpdateWaitConditionHandle",
    "OS::Heat::Value",
    "OS::Heat::WaitCondition",
    "OS::Heat::WaitConditionHandle",
    "OS::Ironic::Port",
    "OS::Keystone::Domain",
    "OS::Keystone::Endpoint",
    "OS::Keystone::Group",
    "OS::Keystone::GroupRoleAssignment",
    "OS::Keystone::Project",
    "OS::Keystone::Region",
    "OS::Keystone::Role",
    "OS::Keystone::Service",
    "OS::Keystone::User",
    "OS::Keystone::UserRoleAssignment",
    "OS::Magnum::Bay",
    "OS::Magnum::BayModel",
    "OS::Magnum::Cluster",
    "OS::Magnum::ClusterTemplate",
    "OS::Manila::SecurityService",
    "OS::Manila::Share",
    "OS::Manila::ShareNetwork",
    "OS::Manila::ShareType",
    "OS::Mistral::CronTrigger",
    "OS::Mistral::ExternalResource",
    "OS::Mistral::Workflow",
    "OS::Monasca::AlarmDefinition",
    "OS::Monasca::Notification",
    "OS::Neutron::AddressScope",
    "OS::Neutron::ExtraRoute",
    "OS::Neutron::ExtraRouteSet",
    "OS::Neutron::Firewall",
    "OS::Neutron::FirewallPolicy",
    "OS::Neutron::FirewallRule",
    "OS::Neutron::FloatingIP",
    "OS::Neutron::FloatingIPAssociation",
    "OS::Neutron::FloatingIPPortForward",
    "OS::Neutron::FlowClassifier",
    "OS::Neutron::HealthMonitor",
    "OS::Neutron::IKEPolicy",
    "OS::Neutron::IPsecPolicy",
    "OS::Neutron::IPsecSiteConnection",
    "OS::Neutron::L2Gateway",
    "OS::Neutron::L2GatewayConnection",
    "OS::Neutron::LBaaS::HealthMonitor",
    "OS::Neutron::LBaaS::L7Policy",
    "OS::Neutron::LBaaS::L7Rule",
    "OS::Neutron::LBaaS::Listener",
    "OS::Neutron::LBaaS::LoadBalancer",
    "OS::Neutron::LBaaS::Pool",
    "OS::Neutron::LBaaS::PoolMember",
    "OS::Neutron::LoadBalancer",
    "OS::Neutron::MeteringLabel",
    "OS::Neutron::MeteringRule",
    "OS::Neutron::Net",
    "OS::Neutron::NetworkGateway",
    "OS::Neutron::Pool",
    "OS::Neutron::PoolMember",
    "OS::Neutron::Port",
    "OS::Neutron::PortChain",
    "OS::Neutron::PortPair",
    "OS::Neutron::PortPairGroup",
    "OS::Neutron::ProviderNet",
    "OS::Neutron::QoSBandwidthLimitRule",
    "OS::Neutron::QoSDscpMarkingRule",
    "OS::Neutron::QoSMinimumBandwidthRule",
    "OS::Neutron::QoSMinimumPacketRateRule",
    "OS::Neutron::QoSPolicy",
    "OS::Neutron::Quota",
    "OS::Neutron::RBACPolicy",
    "OS::Neutron::Router",
    "OS::Neutron::RouterGateway",
    "OS::Neutron::RouterInterface",
    "OS::Neutron::SecurityGroup",
    "OS::Neutron::SecurityGroupRule",
    "OS::Neutron::Segment",
    "OS::Neutron::Subnet",
    "OS::Neutron::SubnetPool",
    "OS::Neutron::TaaS::TapFlow",
    "OS::Neutron::TaaS::TapService",
    "OS::Neutron::Trunk",
    "OS::Neutron::VPNService",
    "OS::Nova::Flavor",
    "OS::Nova::FloatingIP",
    "OS::Nova::FloatingIPAssociation",
    "OS::Nova::HostAggregate",
    "OS::Nova::KeyPair",
    "OS::Nova::Quota",
    "OS::Nova::Server",
    "OS::Nova::ServerGroup",
    "OS::Octavia::AvailabilityZone",
    "OS::Octavia::AvailabilityZoneProfile",
    "OS::Octavia::Flavor",
    "OS::Octavia::FlavorProfile",
    "OS::Octavia::HealthMonitor",
    "OS::Octavia::L7Policy",
    "OS::Octavia::L7Rule",
    "OS::Octavia::Listener",
    "OS::Octavia::LoadBalancer",
    "OS::Octavia::Pool",
    "OS::Octavia::PoolMember",
    "OS::Octavia::Quota",
    "OS::Sahara::Cluster",
    "OS::Sahara::ClusterTemplate",
    "OS::Sahara::DataSource",
    "OS::Sahara::ImageRegistry",
    "OS::Sahara::Job",
    "OS::Sahara::JobBinary",
    "OS::Sahara::NodeGroupTemplate",
    "OS::Senlin::Cluster",
    "OS::Senlin::Node",
    "OS::Senlin::Policy",
    "OS::Senlin::Profile",
    "OS::Senlin::Receiver",
    "OS::Swift::Container",
    "OS::Trove::Cluster",
    "OS::Trove::Instance",
    "OS::Vitrage::Template",
    "OS::Zaqar::MistralTrigger",
    "OS::Zaqar::Queue",
    "OS::Zaqar::SignedQueueURL",
    "OS::Zaqar::Subscription",
    "OS::Zun::Container",
];

/// The `resource_registry` of Heat's shipped global environment, in file
/// order (the commented-out alternatives left out).
pub(crate) const DEFAULT_GLOBAL_ENVIRONMENT: &[(&str, &str)] = &[
    ("OS::Quantum*", "OS::Neutron*"),
    (
        "AWS::CloudWatch::Alarm",
        "file:///etc/heat/templates/AWS_CloudWatch_Alarm.yaml",
    ),
    ("OS::Metering::Alarm", "OS::Aodh::Alarm"),
    (
        "AWS::RDS::DBInstance",
        "file:///etc/heat/templates/AWS_RDS_DBInstance.yaml",
    ),
    ("OS::Ceilometer::Alarm", "OS::Aodh::Alarm"),
    (
        "OS::Ceilometer::GnocchiResourcesAlarm",
        "OS::Aodh::GnocchiResourcesAlarm",
    ),
    (
        "OS::Ceilometer::GnocchiAggregationByMetricsAlarm",
        "OS::Aodh::GnocchiAggregationByMetricsAlarm",
    ),
    (
        "OS::Ceilometer::GnocchiAggregationByResourcesAlarm",
        "OS::Aodh::GnocchiAggregationByResourcesAlarm",
    ),
    (
        "OS::Ceilometer::CombinationAlarm",
        "OS::Aodh::CombinationAlarm",
    ),
];

/// True when Heat itself provides `type_name`.
pub(crate) fn is_plugin(type_name: &str) -> bool {
    PLUGIN_TYPES.binary_search(&type_name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_unique_and_known() {
        assert!(
            PLUGIN_TYPES.windows(2).all(|w| w[0] < w[1]),
            "sorted, unique"
        );
        assert_eq!(PLUGIN_TYPES.len(), 201);
        for t in [
            "OS::Heat::None",
            "OS::Nova::Server",
            "OS::Heat::ResourceGroup",
            "OS::Heat::ResourceChain",
            "AWS::EC2::Instance",
            "OS::Heat::SoftwareDeployment",
            "OS::Neutron::Net",
        ] {
            assert!(is_plugin(t), "{t}");
        }
        assert!(!is_plugin("OS::TripleO::Controller"));
        assert!(!is_plugin("OS::Quantum::Net"), "only through default.yaml");
    }

    /// The lists taken from Heat's source agree with the data generated
    /// by running Heat (tools/heat-schema).
    #[test]
    fn agree_with_the_generated_data() {
        let heat = crate::heat_schema::heat();
        let plugins: Vec<&str> = heat
            .types
            .iter()
            .filter(|(_, t)| !t.is_template())
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(plugins, PLUGIN_TYPES);
        let env: Vec<(&str, &str)> = heat
            .environment
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(env, DEFAULT_GLOBAL_ENVIRONMENT);
    }
}
