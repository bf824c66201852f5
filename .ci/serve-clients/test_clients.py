"""The real OpenStack clients against `heatcap serve` (issue 18).

python-heatclient, openstacksdk and the `openstack orchestration ...`
commands (versions pinned in requirements.txt) talk to a `heatcap serve`
started here, exactly as they talk to Heat. Each answer must equal what
heatcap's command line gives for the same question and, for validate on
the recorded deployments (fixtures/heat/*, the 2016 TripleO one), Heat's
own recorded document (tests/heat/NAME.json, written by
tools/heat-oracle/oracle.py, whose `file://` normalisation is applied here
to heatcap's answer too).

Run by .ci/serve-clients/run (which makes the venv): from the repository
root, `VENV/bin/python .ci/serve-clients/test_clients.py HEATCAP`.
"""

import json
import os
import re
import subprocess
import sys
import unittest
import urllib.parse

HEATCAP = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else 'target/debug/heatcap')
BIN = os.path.dirname(sys.executable)
TRIPLEO = 'fixtures/tripleo-heat-templates-2016'
TRIPLEO_ENVS = [
    'overcloud-resource-registry-puppet.yaml',
    'environments/network-isolation.yaml',
    'environments/storage-environment.yaml',
    'environments/puppet-pacemaker.yaml',
]
DEPTH = '7'  # as the recordings (TripleO's undercloud)
# Heat's clock for the create preview (`creation_time`), the server's and
# the command's alike.
os.environ['SOURCE_DATE_EPOCH'] = '1767225600'
# The compositions previewed (tests/preview.rs finds `heatcap preview`
# equal to Heat 27's recorded answers on both): (root, environments, name).
PREVIEWED = [
    ('fixtures/preview/basic/root.yaml', ['fixtures/preview/basic/env.yaml'], 'root'),
    (TRIPLEO + '/overcloud.yaml',
     [os.path.join(TRIPLEO, e) for e in TRIPLEO_ENVS]
     + ['fixtures/preview/passwords-2016.yaml'], 'overcloud'),
]


def deployments():
    """(name, root template, environments, base) of every recording."""
    out = []
    for name in sorted(os.listdir('fixtures/heat')):
        d = os.path.join('fixtures/heat', name)
        if not os.path.isdir(d):
            continue
        env = os.path.join(d, 'env.yaml')
        out.append((name, os.path.join(d, 'root.yaml'),
                    [env] if os.path.exists(env) else [], d))
    out.append(('corpus-2016', os.path.join(TRIPLEO, 'overcloud.yaml'),
                [os.path.join(TRIPLEO, e) for e in TRIPLEO_ENVS], TRIPLEO))
    return out


def cli(*args):
    r = subprocess.run([HEATCAP] + list(args), capture_output=True, text=True)
    return r.stdout


def cli_json(*args):
    return json.loads(cli(*args))


def cli_heat_document(root, envs):
    args = ['parameters', '-t', root, '--format', 'heat', '-q',
            '--max-nested-depth', DEPTH]
    for e in envs:
        args += ['-e', e]
    return cli_json(*args)


URL_RE = re.compile(r'file://[^\s"\',\]\}]+')


def normalised(value, base):
    """The oracle's normalisation: file:// URLs as paths relative to base."""
    real_base = os.path.realpath(base)

    def one(m):
        path = urllib.parse.unquote(m.group(0)[len('file://'):])
        return os.path.relpath(os.path.realpath(path), real_base)

    if isinstance(value, str):
        return URL_RE.sub(one, value)
    if isinstance(value, list):
        return [normalised(v, base) for v in value]
    if isinstance(value, dict):
        return {normalised(k, base): normalised(v, base) for k, v in value.items()}
    return value


class Served(unittest.TestCase):
    proc = None
    url = None

    @classmethod
    def setUpClass(cls):
        cls.proc = subprocess.Popen(
            [HEATCAP, 'serve', '--listen', '127.0.0.1:0',
             '--max-nested-depth', DEPTH, '--root', 'fixtures'],
            stderr=subprocess.PIPE, text=True)
        line = cls.proc.stderr.readline()
        addr = line.split('http://')[1].split()[0]
        cls.root_url = 'http://%s' % addr
        cls.url = 'http://%s/v1/demo' % addr

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=30)
        cls.proc.stderr.close()

    def heatclient(self):
        from heatclient import client
        return client.Client('1', endpoint=self.url, token='dummy')


class HeatClient(Served):
    def test_validate_as_osc_builds_it(self):
        """stacks.validate with files, environment_files and show_nested,
        built by template_utils exactly as the OSC command builds them."""
        from heatclient import exc
        from heatclient.common import template_utils
        hc = self.heatclient()
        checked = []
        for name, root, envs, base in deployments():
            files, tmpl = template_utils.process_template_path(root)
            tracker = []
            efiles, env = template_utils.process_multiple_environments_and_files(
                env_paths=envs, env_list_tracker=tracker)
            ours = cli_heat_document(root, envs)
            with open('tests/heat/%s.json' % name) as f:
                recorded = json.load(f)
            try:
                got = hc.stacks.validate(
                    template=tmpl, files=dict(files, **efiles), environment=env,
                    environment_files=tracker, parameters={}, show_nested=True)
            except exc.HTTPBadRequest as e:
                message = e.error['error']['message']
                self.assertEqual(ours.get('Error'), message, name)
                self.assertTrue(recorded['Error'].endswith(message), name)
                checked.append(name)
                continue
            self.assertEqual(got, ours, name)
            self.assertEqual(normalised(got, base), recorded, name)
            checked.append(name)
        self.assertIn('corpus-2016', checked)
        self.assertGreaterEqual(len(checked), 12)
        print('heatclient validate: %d deployments equal to the CLI and to Heat'
              % len(checked), file=sys.stderr)

    def test_errors(self):
        from heatclient import exc
        hc = self.heatclient()
        with self.assertRaises(exc.HTTPBadRequest) as e:
            hc.stacks.validate(template={'heat_template_version': '2099-01-01'})
        self.assertEqual(e.exception.error['error']['type'], 'InvalidTemplateVersion')
        with self.assertRaises(exc.HTTPNotFound) as e:
            hc.resource_types.get('No::Such::Type')
        self.assertEqual(e.exception.error['error']['type'], 'EntityNotFound')

    def test_resource_types(self):
        hc = self.heatclient()
        names = [t.resource_type for t in hc.resource_types.list()]
        self.assertEqual(
            names, cli_json('resource-type', 'list', '--format', 'heat')['resource_types'])
        described = hc.resource_types.list(
            filters={'name': 'OS::Heat::'}, with_description=True)
        self.assertEqual(
            [{'resource_type': d.resource_type, 'description': d.description}
             for d in described],
            cli_json('resource-type', 'list', '--filter', 'name=OS::Heat::',
                     '--long', '--format', 'heat')['resource_types'])
        shown = hc.resource_types.get('OS::Heat::RandomString')
        self.assertEqual(shown, cli_json('resource-type', 'show',
                                         'OS::Heat::RandomString', '--format', 'heat'))
        for kind in ('hot', 'cfn'):
            t = hc.resource_types.generate_template('OS::Nova::Server', template_type=kind)
            self.assertEqual(t, cli_json('resource-type', 'show', 'OS::Nova::Server',
                                         '--template-type', kind, '--format', 'heat'))

    def test_template_versions(self):
        hc = self.heatclient()
        versions = hc.template_versions.list()
        self.assertEqual(len(versions), 13)
        self.assertEqual(versions[7].aliases, ['heat_template_version.newton'])
        fns = hc.template_versions.get('heat_template_version.2018-08-31',
                                       with_condition_func=False)
        names = [f.functions for f in fns]
        self.assertIn('get_param', names)
        self.assertNotIn('equals', names)
        with_cond = hc.template_versions.get('heat_template_version.2018-08-31',
                                             with_condition_func=True)
        self.assertIn('equals', [f.functions for f in with_cond])


class OpenStackSDK(Served):
    def test_validate_template(self):
        import openstack
        import openstack.exceptions as oe
        conn = openstack.connect(load_yaml_config=False, load_envvars=False,
                                 auth_type='none', auth={'endpoint': self.url})
        # The SDK sends no files: a self-contained template.
        import tempfile
        import yaml
        text = ("heat_template_version: '2018-08-31'\n"
                'description: self-contained\n'
                'parameters:\n'
                '  Flavor: {type: string, default: m1.small, '
                'constraints: [{allowed_values: [m1.small, m1.large]}]}\n'
                '  Count: {type: number, default: 2}\n'
                '  Password: {type: string, hidden: true}\n'
                'resources:\n'
                '  r: {type: OS::Heat::RandomString}\n')
        with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as f:
            f.write(text)
        try:
            ours = cli_heat_document(f.name, [])
        finally:
            os.unlink(f.name)
        t = conn.orchestration.validate_template(template=yaml.safe_load(text))
        self.assertEqual(t.parameters, ours['Parameters'])
        self.assertEqual(t.description, ours['Description'])
        with self.assertRaises(oe.BadRequestException) as e:
            conn.orchestration.validate_template(
                template={'heat_template_version': '2099-01-01'})
        self.assertEqual(e.exception.status_code, 400)
        self.assertIn('template version is invalid', str(e.exception))


class OpenStackCommand(Served):
    def osc(self, *args):
        r = subprocess.run(
            [os.path.join(BIN, 'openstack'), '--os-auth-type', 'none',
             '--os-endpoint', self.url] + list(args) + ['-f', 'json'],
            capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_template_validate(self):
        c = TRIPLEO
        args = ['orchestration', 'template', 'validate', '-t', c + '/overcloud.yaml']
        for e in TRIPLEO_ENVS:
            args += ['-e', os.path.join(c, e)]
        got = self.osc(*(args + ['--show-nested']))
        ours = cli_heat_document(c + '/overcloud.yaml',
                                 [os.path.join(c, e) for e in TRIPLEO_ENVS])
        self.assertEqual(got, ours)
        with open('tests/heat/corpus-2016.json') as f:
            recorded = json.load(f)
        self.assertEqual(normalised(got, c), recorded)

    def test_resource_type_show(self):
        got = self.osc('orchestration', 'resource', 'type', 'show', 'OS::Heat::RandomString')
        self.assertEqual(got, cli_json('resource-type', 'show', 'OS::Heat::RandomString',
                                       '--format', 'heat'))

    def test_stack_create_dry_run(self):
        """`openstack stack create --dry-run` prints what `heatcap preview
        --format heat` prints (the stack's fields, as the client lists
        them), in the client's project (`heatcap`, the command's) and with
        the server's address in `links` (the command's is Heat's default
        endpoint)."""
        endpoint = self.root_url + '/v1/heatcap'
        for root, envs, name in PREVIEWED:
            args = ['stack', 'create', '--dry-run', '-t', root]
            for e in envs:
                args += ['-e', e]
            r = subprocess.run(
                [os.path.join(BIN, 'openstack'), '--os-auth-type', 'none',
                 '--os-endpoint', endpoint] + args + [name, '-f', 'json'],
                capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = json.loads(r.stdout.replace(
                self.root_url + '/v1/', 'http://localhost:8004/v1/'))
            cli_args = ['preview', '-t', root, '--stack-name', name,
                        '--format', 'heat', '-q', '--max-nested-depth', DEPTH]
            for e in envs:
                cli_args += ['-e', e]
            ours = cli_json(*cli_args)
            self.assertIn('stack', ours, root)
            self.assertEqual(got, ours['stack'], root)
        print('openstack stack create --dry-run: %d compositions equal to '
              '`heatcap preview --format heat`' % len(PREVIEWED), file=sys.stderr)

    def test_stack_create_dry_run_refused(self):
        """Heat's refusal reaches the client as Heat's fault: a root
        parameter without a value."""
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as f:
            f.write("heat_template_version: '2018-08-31'\n"
                    'parameters: {x: {type: string}}\n')
        try:
            r = subprocess.run(
                [os.path.join(BIN, 'openstack'), '--os-auth-type', 'none',
                 '--os-endpoint', self.url, 'stack', 'create', '--dry-run',
                 '-t', f.name, 's'], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('The Parameter (x) was not provided.', r.stderr)

    def test_template_version_list(self):
        got = self.osc('orchestration', 'template', 'version', 'list')
        self.assertEqual(len(got), 13)
        self.assertEqual(got[0]['Version'], 'AWSTemplateFormatVersion.2010-09-09')


if __name__ == '__main__':
    unittest.main(verbosity=2)
