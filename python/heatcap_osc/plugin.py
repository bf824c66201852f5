"""The OpenStack client's view of heatcap (entry point ``openstack.cli.extension``).

The OpenStack client imports this module, registers its commands (the entry
point group ``openstack.heatcap.v1``) and, only when a command asks for
``client_manager.heatcap``, calls :func:`make_client`. heatcap reads files
and talks to no cloud: the client needs no session, no endpoint and no
credentials, and every command says ``auth_required = False``.
"""

import heatcap_osc

API_NAME = "heatcap"
# The shell reads the configured version under this name (without `os_`);
# nobody sets it, so DEFAULT_API_VERSION applies and the commands are those
# of the group `openstack.heatcap.v1`.
API_VERSION_OPTION = "os_heatcap_api_version"
DEFAULT_API_VERSION = "1"
API_VERSIONS = {"1": "heatcap_osc.plugin.Client"}


class Client:
    """Runs the installed ``heatcap`` binary; see :func:`heatcap_osc.run_heatcap`."""

    def __init__(self, binary=None):
        self.binary = binary or heatcap_osc.find_heatcap()

    def run(self, args):
        return heatcap_osc.run_heatcap(args, binary=self.binary)


def make_client(instance):  # noqa: ARG001 (the OpenStack client's signature)
    """The client of the ``heatcap`` API: the binary, no session."""
    return Client()


def build_option_parser(parser):
    """heatcap adds no global option."""
    return parser
