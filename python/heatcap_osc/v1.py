"""``openstack orchestration template capabilities ...``: heatcap's answers as cliff listings.

Each command builds heatcap's own command line, runs the binary (which
prints JSON), and returns the answer as rows; cliff renders them in the
format asked (``-f json|yaml|table|value|csv``, ``-c COLUMN``). The rows
keep heatcap's order, and the JSON and YAML formats carry heatcap's values
unchanged; the text formats (``value``, ``csv``) print a structured cell
as JSON text (hidden parameter values masked, as in the table) and any
other as the table shows it, never a Python repr.

The spec's commands take ``-c KEY=VALUE`` and ``-f FILE``, where cliff
takes ``-c COLUMN`` and ``-f FORMAT``. The two never meet: a capability
condition always contains ``=`` and a column name never does; a value of
``-f`` that is one of cliff's format names is the format, any other is a
file (write ``./json`` or ``--file json`` for a file named ``json``). The
long options (``--capability``, ``--column``, ``--file``, ``--format``) are
never ambiguous.
"""

import argparse
import json

from cliff import columns
from osc_lib.command import command

__all__ = [
    "CapabilitiesFind",
    "CapabilitiesOptions",
    "CapabilitiesParameters",
    "CapabilitiesResolve",
    "CapabilitiesSummary",
]


def _text(value):
    """A value as heatcap prints it in tables: strings as they are, others as JSON (`true`, `2`)."""
    return value if isinstance(value, str) else json.dumps(value)


# The formats that lay out structured cells themselves; every other one
# (`value`, `csv`) prints `str()` of a cell, which for a list or a mapping
# is a Python repr. python-heatclient gives those formats JSON text
# (heatclient.osc.v1.stack: JsonColumn for `shell`, `value`, `html`).
_STRUCTURED_FORMATS = frozenset({"table", "json", "yaml"})


class _Column(columns.FormattableColumn):
    """A column of this plugin: its text formats print :meth:`plain`."""

    def plain(self):
        """The cell in a text format (`-f value`, `-f csv`): JSON text where
        the value is structured, otherwise the table's text."""
        value = self.machine_readable()
        if isinstance(value, (list, dict)):
            return json.dumps(value, ensure_ascii=False)
        return self.human_readable()


def _plain_row(row):
    return tuple(cell.plain() if isinstance(cell, _Column) else cell for cell in row)


class _Values(_Column):
    """A list, in heatcap's order (osc-lib's ListColumn would sort it)."""

    def human_readable(self):
        return "\n".join(_text(v) for v in self._value)

    def machine_readable(self):
        return list(self._value)


class _Capabilities(_Column):
    """A `capabilities` mapping, in the template's order, as `key=value` lines."""

    def human_readable(self):
        lines = []
        for key, value in self._value.items():
            shown = ", ".join(_text(v) for v in value) if isinstance(value, list) else _text(value)
            lines.append(f"{key}={shown}")
        return "\n".join(lines)

    def machine_readable(self):
        return dict(self._value)


class _Inferred(_Column):
    """Where a match's types were inferred from (heatcap's `inferred`: type →
    the environment entries that map it), as `TYPE: ENV:LINE` lines; `-`
    when every type was declared."""

    def human_readable(self):
        if not self._value:
            return "-"
        return "\n".join(
            f"{ty}: " + ", ".join(f"{e['environment']}:{e['line']}" for e in entries)
            for ty, entries in self._value.items()
        )

    def machine_readable(self):
        return dict(self._value) if self._value else None


class _Offered(_Capabilities):
    """A candidate's capabilities as heatcap's options table shows them: `resource_type` left out, `-` for none."""

    def human_readable(self):
        shown = {k: v for k, v in self._value.items() if k != "resource_type"}
        return _Capabilities(shown).human_readable() if shown else "-"


class _CapabilityOrColumn(argparse.Action):
    """`-c KEY=VALUE` is a capability condition, `-c COLUMN` cliff's column."""

    def __call__(self, parser, namespace, value, option_string=None):
        dest = "capabilities" if "=" in value else "columns"
        setattr(namespace, dest, [*(getattr(namespace, dest, None) or []), value])


class _FileOrFormat(argparse.Action):
    """`-f FORMAT` for cliff's format names, `-f FILE` for anything else."""

    def __init__(self, *args, formats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.formats = frozenset(formats)

    def __call__(self, parser, namespace, value, option_string=None):
        if value in self.formats:
            namespace.formatter = value
        else:
            namespace.files = [*(getattr(namespace, "files", None) or []), value]


class _HeatcapLister(command.Lister):
    """A listing heatcap answers offline: no cloud, no credentials."""

    # The OpenStack shell authenticates before every command that does not
    # say otherwise (osc_lib.shell.prepare_to_run_command); heatcap reads
    # local files only.
    auth_required = False
    # Our `-c` and `-f` replace cliff's short options (its `--column` and
    # `--format` stay), and hand cliff's values on (see the module's doc).
    conflict_handler = "resolve"

    _status = 0

    def _walk_options(self, parser):
        parser.add_argument(
            "-r", "--recursive", action="store_true",
            help="walk directories recursively (sorted, symbolic links followed)",
        )
        parser.add_argument(
            "--include", action="append", default=[], metavar="GLOB",
            help="only files matching this glob; repeatable (default: *.yaml, *.yml, *.json, *.template)",
        )
        parser.add_argument(
            "--exclude", action="append", default=[], metavar="GLOB",
            help="skip files and directories matching this glob; repeatable",
        )
        parser.add_argument(
            "--hidden", action="store_true",
            help="also enter directories whose name starts with a dot",
        )

    @staticmethod
    def _walk_args(parsed_args):
        args = ["-r"] if parsed_args.recursive else []
        for glob in parsed_args.include:
            args += ["--include", glob]
        for glob in parsed_args.exclude:
            args += ["--exclude", glob]
        if parsed_args.hidden:
            args.append("--hidden")
        return args

    def _heatcap(self, args):
        """heatcap's JSON answer; its exit status becomes this command's."""
        verbosity = getattr(self.app.options, "verbose_level", 1)
        if verbosity == 0:
            args = [args[0], "-q", *args[1:]]
        elif verbosity >= 2:
            args = [args[0], "-v", *args[1:]]
        from osc_lib import exceptions

        import heatcap_osc

        try:
            self._status, answer = self.app.client_manager.heatcap.run(args)
        except heatcap_osc.HeatcapError as err:
            raise exceptions.CommandError(str(err)) from err
        return answer

    def produce_output(self, parsed_args, column_names, data):
        if parsed_args.formatter not in _STRUCTURED_FORMATS:
            data = (_plain_row(row) for row in data)
        return super().produce_output(parsed_args, column_names, data)

    def run(self, parsed_args):
        # heatcap's exit 1 (nothing matched; a file could not be read)
        # comes with a complete answer: print it, then exit 1 as heatcap does.
        return super().run(parsed_args) or self._status


class CapabilitiesFind(_HeatcapLister):
    """Find the templates whose capabilities match every condition.

    heatcap capabilities-find: one row per matching template, in walk order,
    paths as given.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "-c", dest="capabilities", action=_CapabilityOrColumn, default=[],
            metavar="KEY=VALUE|COLUMN",
            help="a capability the template must declare (KEY=VALUE; repeatable, all must match); "
            "without '=', a column to show (as --column)",
        )
        parser.add_argument(
            "--capability", dest="capabilities", action="append", metavar="KEY=VALUE",
            help="a capability the template must declare; repeatable, all must match",
        )
        self._walk_options(parser)
        parser.add_argument(
            "paths", nargs="+", metavar="PATH",
            help="templates, and directories to walk (with -r)",
        )
        return parser

    def take_action(self, parsed_args):
        args = ["capabilities-find", *self._walk_args(parsed_args)]
        for condition in parsed_args.capabilities:
            args += ["-c", condition]
        args += ["--", *parsed_args.paths]
        answer = self._heatcap(args)
        rows = [
            (m["path"], _Capabilities(m["capabilities"]), _Inferred(m.get("inferred")))
            for m in answer
        ]
        return ("Path", "Capabilities", "Inferred from"), rows


class CapabilitiesSummary(_HeatcapLister):
    """Summarize the capabilities that templates and environments offer.

    heatcap template-capabilities: every capability key with its values, in
    first-seen order; with --by-type, every resource type with the
    templates that implement it.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "-f", dest="files", action=_FileOrFormat, default=[],
            formats=self._formatter_plugins.names(), metavar="FILE|FORMAT",
            help="a template, or with -r a directory of templates; repeatable. "
            "One of the format names is the output format instead (as --format)",
        )
        parser.add_argument(
            "--file", dest="files", action="append", metavar="FILE",
            help="a template, or with -r a directory of templates; repeatable",
        )
        parser.add_argument(
            "-e", "--environment", dest="environments", action="append", default=[],
            metavar="ENV",
            help="an environment whose resource_registry templates join the set; repeatable",
        )
        parser.add_argument(
            "--by-type", action="store_true",
            help="list every resource type named in a capabilities.resource_type, "
            "with the templates that implement it",
        )
        self._walk_options(parser)
        return parser

    def take_action(self, parsed_args):
        from osc_lib import exceptions

        if not parsed_args.files and not parsed_args.environments:
            raise exceptions.CommandError("give at least one -f FILE or -e ENV")
        args = ["template-capabilities", *self._walk_args(parsed_args)]
        for path in parsed_args.files:
            args += ["--file", path]
        for path in parsed_args.environments:
            args += ["--environment", path]
        if parsed_args.by_type:
            args.append("--by-type")
        answer = self._heatcap(args)
        heading = ("Resource type", "Templates") if parsed_args.by_type else ("Capability", "Values")
        return heading, [(key, _Values(values)) for key, values in answer.items()]


class _Selector(_Column):
    """`selected_by`: the `requires` that picks a candidate on its own, as heatcap's table shows it."""

    def human_readable(self):
        if self._value is None:
            return "-"
        if not self._value:
            return "(any)"
        return ", ".join(f"{key}: {_text(value)}" for key, value in self._value.items())

    def machine_readable(self):
        return None if self._value is None else dict(self._value)


def _status(candidate, chosen, mapped):
    """A candidate's "Now", worded as heatcap's options table words it."""
    if chosen is not None and candidate["name"] == chosen:
        return "mapped" if mapped else "chosen"
    if candidate.get("unlisted"):
        return "not listed"
    if candidate.get("problem"):
        return "missing"
    if candidate.get("excluded"):
        return "excluded"
    if candidate.get("matches"):
        return "matches"
    return ""


class CapabilitiesOptions(_HeatcapLister):
    """List every choice a UI must offer, and the requires that selects each candidate.

    heatcap options: one row per candidate of every type with more than one
    possible implementation, with its capabilities, whether the current
    requires chooses it, and the smallest requires that would.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "-e", "--environment", dest="environments", action="append", default=[],
            metavar="ENV", help="an environment, merged in the order given as Heat merges them; repeatable",
        )
        parser.add_argument(
            "-r", "--templates", action="append", default=[], metavar="DIR",
            help="a directory (walked recursively) whose templates offer implementations "
            "through capabilities.resource_type; repeatable",
        )
        return parser

    def take_action(self, parsed_args):
        from osc_lib import exceptions

        if not parsed_args.environments and not parsed_args.templates:
            raise exceptions.CommandError("give at least one -e ENV or -r DIR")
        args = ["options"]
        for path in parsed_args.environments:
            args += ["--environment", path]
        for path in parsed_args.templates:
            args += ["--templates", path]
        answer = self._heatcap(args)
        rows = []
        for choice in answer["choices"]:
            selection = choice["selection"]
            mapped = choice.get("mapped_to") is not None
            for candidate in selection["candidates"]:
                rows.append((
                    choice["type"],
                    choice.get("resource"),
                    candidate.get("path", candidate["name"]),
                    _Offered(candidate.get("capabilities") or {}),
                    _status(candidate, selection.get("chosen"), mapped),
                    _Selector(candidate.get("selected_by")),
                    choice.get("problem"),
                ))
        return ("Type", "Resource", "Candidate", "Capabilities", "Now", "Select with", "Problem"), rows


class CapabilitiesResolve(_HeatcapLister):
    """Show what the environments pick for every type, as Heat would pick it.

    heatcap resolve: one row per lookup (every lookup, as heatcap's JSON has
    them), with the implementation chosen, or the reason none was.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "-t", "--template", metavar="TEMPLATE",
            help="walk this root template's whole composition",
        )
        parser.add_argument(
            "-e", "--environment", dest="environments", action="append", default=[],
            metavar="ENV", help="an environment, merged in the order given as Heat merges them; repeatable",
        )
        parser.add_argument("--type", metavar="TYPE", help="answer the lookup of this type only")
        parser.add_argument(
            "--resource", metavar="NAME", help="with --type: the lookup for this resource",
        )
        return parser

    def take_action(self, parsed_args):
        args = ["resolve"]
        if parsed_args.template:
            args += ["--template", parsed_args.template]
        for path in parsed_args.environments:
            args += ["--environment", path]
        if parsed_args.type:
            args += ["--type", parsed_args.type]
        if parsed_args.resource:
            args += ["--resource", parsed_args.resource]
        answer = self._heatcap(args)
        rows = []
        for lookup in answer["resolutions"]:
            implementation = lookup.get("implementation") or {}
            error = lookup.get("error")
            rows.append((
                lookup["type"],
                lookup.get("resource"),
                implementation.get("template", implementation.get("plugin")),
                error["error"] if error else None,
            ))
        return ("Type", "Resource", "Implementation", "Error"), rows


_SOURCES = {"property": "parent property"}


class _ParameterValues(_Column):
    """A parameter's values, as heatcap's table shows them: `value (source)`, hidden ones masked."""

    def __init__(self, value, hidden=False):
        super().__init__(value)
        self.hidden = hidden

    def human_readable(self):
        parts = []
        for v in self._value:
            shown = "******" if self.hidden else _text(v["value"])
            part = f"{shown} ({_SOURCES.get(v['source'], v['source'])})"
            if part not in parts:
                parts.append(part)
        return "\n".join(parts)

    def machine_readable(self):
        return list(self._value)

    def plain(self):
        # A text format is read like the table: hidden values masked.
        if not self.hidden:
            return super().plain()
        masked = [{**v, "value": "******"} for v in self._value]
        return json.dumps(masked, ensure_ascii=False)


class CapabilitiesParameters(_HeatcapLister):
    """List every parameter of the chosen composition, and where its value comes from.

    heatcap parameters: one row per parameter of every template in the
    nested composition the environments (and --choose) select, with the
    stacks where nothing supplies it (the user must), its values and their
    sources, and the stacks that declare it.
    """

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "-t", "--template", required=True, metavar="TEMPLATE", help="the root template",
        )
        parser.add_argument(
            "-e", "--environment", dest="environments", action="append", default=[],
            metavar="ENV", help="an environment, merged in the order given as Heat merges them; repeatable",
        )
        parser.add_argument(
            "--choose", action="append", default=[], metavar="TYPE=PATH",
            help="implement TYPE with PATH, as a UI selection would; repeatable",
        )
        return parser

    def take_action(self, parsed_args):
        args = ["parameters", "--template", parsed_args.template]
        for path in parsed_args.environments:
            args += ["--environment", path]
        for choice in parsed_args.choose:
            args += ["--choose", choice]
        answer = self._heatcap(args)
        rows = [
            (
                name,
                p.get("type"),
                bool(p.get("hidden")),
                _Values(p.get("required_in") or []),
                _ParameterValues(p.get("values") or [], bool(p.get("hidden"))),
                _Values(p.get("declared_by") or []),
            )
            for name, p in answer["parameters"].items()
        ]
        return ("Parameter", "Type", "Hidden", "Required in", "Values", "Declared by"), rows
