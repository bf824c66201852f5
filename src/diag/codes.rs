//! The codes no validation rule owns: loading and walking (0xxx), the
//! `capabilities` annotation (5xxx), environment loading and merging
//! (6xxx), composition (7xxx) and TripleO plans and catalogues (9xxx). Each is defined here once, with its
//! catalogue entry in [`CODES`]; the rules' codes live in their own files
//! (`src/validate/*/`), and the two together are the whole catalogue.

use super::{Code, CodeInfo};

/// The file or directory could not be read.
pub(crate) const READ_ERROR: Code = Code("E0001");
/// The file is not valid UTF-8 text (binary data).
pub(crate) const NOT_UTF8: Code = Code("E0002");
/// The file is larger than the size limit (Heat's `max_template_size`).
pub(crate) const TOO_LARGE: Code = Code("E0003");
/// YAML syntax error, or a YAML construct Heat's loader rejects.
pub(crate) const YAML_SYNTAX: Code = Code("E0004");
/// A file starting with `{` that is not valid JSON nor YAML.
pub(crate) const JSON_SYNTAX: Code = Code("E0005");
/// The document nests deeper than the loader's limit.
pub(crate) const TOO_DEEP: Code = Code("E0006");
/// Aliases expand to more nodes than the loader's limit.
pub(crate) const ALIAS_EXPANSION: Code = Code("E0007");
/// More than one YAML document in one file.
pub(crate) const MULTI_DOCUMENT: Code = Code("E0008");
/// libyaml refuses the file; Heat reads it only through its fallback loader.
pub(crate) const FALLBACK_YAML: Code = Code("W0009");
/// A mapping repeats a key; Heat keeps the last value.
pub(crate) const DUPLICATE_KEY: Code = Code("W0010");
/// A file named explicitly is not a template or an environment.
pub(crate) const NOT_HEAT_FILE: Code = Code("W0011");
/// A symbolic link loop found while walking.
pub(crate) const SYMLINK_LOOP: Code = Code("W0012");
/// A Jinja source (`*.j2.yaml`) was skipped.
pub(crate) const JINJA_SKIPPED: Code = Code("I0013");
/// A path given on the command line does not exist.
pub(crate) const NOT_FOUND: Code = Code("E0014");
/// A file named explicitly is a Jinja source.
pub(crate) const JINJA_SOURCE: Code = Code("E0015");
/// A Jinja source, or the data it is rendered with, could not be rendered.
pub(crate) const RENDER_ERROR: Code = Code("E0020");
/// A TripleO tree's rendered files on disk differ from heatcap's render of
/// its Jinja sources.
pub(crate) const RENDERED_ON_DISK_DIFFERS: Code = Code("W0026");
/// With `--roles-data`/`--network-data`, the rendered files on disk that
/// heatcap's render replaces.
pub(crate) const RENDERED_ON_DISK_SET_ASIDE: Code = Code("W0027");
/// `--rev`: the path is not in a git repository with a working directory.
pub(crate) const NOT_A_REPOSITORY: Code = Code("E0031");
/// `--rev`: the repository does not know the revision.
pub(crate) const UNKNOWN_REVISION: Code = Code("E0032");
/// `--rev`: objects of the revision are missing (a shallow or partial clone).
pub(crate) const OBJECTS_MISSING: Code = Code("E0033");
/// A path that is not a regular file (a FIFO, a device, a socket).
pub(crate) const NOT_REGULAR: Code = Code("E0017");
/// A directory given without `-r`.
pub(crate) const DIRECTORY_SKIPPED: Code = Code("W0016");
/// A `# heatcap: ignore[...]` comment that suppressed nothing.
pub(crate) const UNUSED_SUPPRESSION: Code = Code("W0018");
/// A `# heatcap:` comment that cannot be read, or names an unknown code.
pub(crate) const INVALID_SUPPRESSION: Code = Code("W0019");
/// `capabilities` is present but is not a mapping.
pub(crate) const CAPABILITIES_NOT_MAPPING: Code = Code("W5001");
/// `capabilities.resource_type` is not a string or a list of strings.
pub(crate) const RESOURCE_TYPE_NOT_STRINGS: Code = Code("W5002");
/// A later null that Heat ignores (it cannot undo an earlier mapping).
pub(crate) const LATER_NULL_IGNORED: Code = Code("W6001");
/// A later `resources:` section replaces the earlier one wholesale.
pub(crate) const RESOURCES_REPLACED: Code = Code("W6002");
/// `resource_registry` or `requires` is not a mapping.
pub(crate) const SECTION_NOT_MAPPING: Code = Code("E6003");
/// A `hooks` or `restricted_actions` value Heat rejects.
pub(crate) const INVALID_HOOK: Code = Code("E6004");
/// A top-level section Heat does not know (`requires` is heatcap's own).
pub(crate) const WRONG_SECTION: Code = Code("E6005");
/// A section whose value is null, which Heat rejects.
pub(crate) const EMPTY_SECTION: Code = Code("E6006");
/// A `requires` value that is not a scalar or a list of scalars.
pub(crate) const INVALID_REQUIREMENT: Code = Code("E6013");
/// An environment file whose document is not a mapping.
pub(crate) const ENVIRONMENT_NOT_MAPPING: Code = Code("E6014");
/// A resource type maps to a template that does not exist or is not a template.
pub(crate) const MISSING_TEMPLATE: Code = Code("E7001");
/// A template includes itself through its resources.
pub(crate) const CYCLE: Code = Code("E7002");
/// Nested stacks deeper than Heat allows.
pub(crate) const NESTED_TOO_DEEP: Code = Code("E7003");
/// A type could not be resolved (not found, alias loop, unresolved choice).
pub(crate) const UNRESOLVED: Code = Code("E7004");
/// A file the export needs is missing or cannot be read.
pub(crate) const EXPORT_FILE: Code = Code("E7005");
/// A template with more resources than Heat's `max_resources_per_stack`.
pub(crate) const TOO_MANY_RESOURCES: Code = Code("E7012");
/// A file the client uploads is larger than Heat's `max_template_size`.
pub(crate) const UPLOAD_TOO_LARGE: Code = Code("E7013");
/// `export` would read a file outside its tree.
pub(crate) const OUTSIDE_TREE: Code = Code("E7011");
/// A `get_file` target that cannot be read.
pub(crate) const MISSING_FILE: Code = Code("E7006");
/// A parent passes a property its provider template does not declare.
pub(crate) const UNKNOWN_PROPERTY: Code = Code("E7007");
/// A provider template's required parameter that nothing sets.
pub(crate) const PROPERTY_UNSET: Code = Code("W7008");
/// A type maps to a template whose `resource_type` annotation leaves it out.
pub(crate) const ANNOTATION_MISMATCH: Code = Code("W7009");
/// A candidate template no `requires` can select.
pub(crate) const UNSELECTABLE: Code = Code("W7010");
/// A value an environment gives a parameter that the parameter refuses.
pub(crate) const INVALID_PARAMETER_VALUE: Code = Code("E7014");
/// A literal a resource passes to a template's parameter that it refuses.
pub(crate) const INVALID_PROVIDER_PROPERTY: Code = Code("E7015");
/// E2008 where the composition (`-e`) passes the parameter: Heat refuses
/// the file only when it is validated alone.
pub(crate) const VALUE_MISSING_WHEN_ALONE: Code = Code("I7016");
/// A root template parameter nothing gives a value: Heat refuses the
/// stack (`UserParameterMissing`).
pub(crate) const ROOT_PARAMETER_UNSET: Code = Code("E7017");
/// An environment's `parameters` name a parameter the root template does
/// not declare: Heat refuses the stack (`UnknownUserParameter`).
pub(crate) const UNKNOWN_USER_PARAMETER: Code = Code("E7018");
/// A `capabilities-map.yaml` that is not the catalogue's shape.
pub(crate) const CATALOGUE_INVALID: Code = Code("E9001");
/// A catalogue entry whose file is missing, only a Jinja source, or no environment.
pub(crate) const CATALOGUE_DRIFT: Code = Code("W9002");
/// An environment enabled without an environment it requires.
pub(crate) const REQUIREMENT_MISSING: Code = Code("E9003");
/// Environments whose `requires` form a cycle.
pub(crate) const REQUIREMENT_CYCLE: Code = Code("E9004");
/// A plan environment tripleo-common could not use.
pub(crate) const PLAN_INVALID: Code = Code("E9005");
/// Something in a plan tripleo-common leaves out or cannot find.
pub(crate) const PLAN_ENTRY_DROPPED: Code = Code("W9006");
/// An environment merged before one it requires.
pub(crate) const REQUIREMENT_AFTER: Code = Code("W9007");
/// Two environments the catalogue declares mutually exclusive, both enabled.
pub(crate) const EXCLUSIVE_ENABLED: Code = Code("W9008");

/// The catalogue entries of the codes above, in code order.
pub(crate) static CODES: &[CodeInfo] = &[
    CodeInfo {
        code: READ_ERROR,
        name: "ReadError",
        summary: "the file or directory could not be read",
        what: "Opening or reading the file failed (permissions, an I/O error, a file that vanished).",
        why: "Heat never sees a file the client cannot read; the rest of the tree is still processed.",
        example: "a template with mode 000.",
        source: "heat-semantics §2.12 (the client reads every file it uploads)",
    },
    CodeInfo {
        code: NOT_UTF8,
        name: "NotUtf8",
        summary: "the file is not UTF-8 text (binary data); the position of the first bad byte is given",
        what: "The bytes are not valid UTF-8.",
        why: "Heat's parsers read text; a binary file is not a template or an environment.",
        example: "a PNG saved as `logo.yaml`.",
        source: "heat-semantics §1.1",
    },
    CodeInfo {
        code: TOO_LARGE,
        name: "FileTooLarge",
        summary: "the file is larger than `--max-size` characters (Heat's `max_template_size`)",
        what: "The file holds more characters than the limit (524,288 by default, as in Heat).",
        why: "Heat refuses templates over `max_template_size` with \"Request limit exceeded: Template size (N bytes) exceeds maximum allowed size\".",
        example: "a 600 KB template.",
        source: "heat-semantics §1.3",
    },
    CodeInfo {
        code: YAML_SYNTAX,
        name: "YamlSyntax",
        summary: "YAML syntax error, or a construct Heat's loader rejects (unknown tag, unhashable key, bad merge)",
        what: "The text is not YAML that Heat's loader (PyYAML's SafeLoader with Heat's two overrides) accepts.",
        why: "Heat answers \"Error parsing template\" and reads nothing of the file.",
        example: "`resources: {a: [1, 2}` or a `!foo` tag.",
        source: "heat-semantics §1.1, §1.2",
    },
    CodeInfo {
        code: JSON_SYNTAX,
        name: "JsonSyntax",
        summary: "a file starting with `{` is neither valid JSON nor YAML",
        what: "python-heatclient reads a file starting with `{` as JSON; this one is neither JSON nor YAML.",
        why: "The client fails before Heat is called.",
        example: "`{\"heat_template_version\": \"2016-10-14\",}`.",
        source: "heat-semantics §1.2 (heatclient's JSON test)",
    },
    CodeInfo {
        code: TOO_DEEP,
        name: "NestingTooDeep",
        summary: "the document nests deeper than 256 levels",
        what: "Mappings and lists nest deeper than heatcap's limit of 256 levels.",
        why: "PyYAML fails near Python's recursion limit; the limit also keeps hostile input cheap.",
        example: "`[[[[...]]]]` 300 levels deep.",
        source: "heat-semantics §1.2",
    },
    CodeInfo {
        code: ALIAS_EXPANSION,
        name: "AliasExpansion",
        summary: "aliases expand to more than 100,000 nodes (an alias bomb)",
        what: "YAML aliases would copy more than 100,000 nodes into the document.",
        why: "A \"billion laughs\" document exhausts memory in any consumer that expands it.",
        example: "`a: &a [x, x]` then `b: &b [*a, *a]` repeated.",
        source: "heatcap's own limit",
    },
    CodeInfo {
        code: MULTI_DOCUMENT,
        name: "MultipleDocuments",
        summary: "more than one YAML document in the file",
        what: "The file holds several `---`-separated documents.",
        why: "Heat's loader answers \"expected a single document in the stream\".",
        example: "two templates in one file separated by `---`.",
        source: "heat-semantics §1.1",
    },
    CodeInfo {
        code: FALLBACK_YAML,
        name: "FallbackYaml",
        summary: "libyaml refuses the file; Heat reads it only by retrying with PyYAML's pure-Python loader",
        what: "libyaml (PyYAML's `CSafeLoader`, which Heat and python-heatclient load with first) refuses the text, and PyYAML's pure-Python `SafeLoader`, which they retry with, reads it. heatcap answers for what the second loader reads; the position is where libyaml stopped.",
        why: "Heat and its client accept the file, but tools that read YAML with libyaml (PyYAML's `CSafeLoader`, libyaml's bindings in other languages) refuse it; and in such a file a date or timestamp becomes a Python date, which the client sends as `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS.ffffff` text.",
        example: "`HOSTNAME: {get_attr:[Controller, name]}` (no space after the flow key's colon), as in the train and ussuri role templates.",
        source: "heat/common/template_format.py `simple_parse`, environment_format.py `parse`, heatclient/common/template_format.py `parse`",
    },
    CodeInfo {
        code: DUPLICATE_KEY,
        name: "DuplicateKey",
        summary: "a mapping repeats a key; as in Heat, the last value wins",
        what: "The same key appears twice in one mapping.",
        why: "Heat silently keeps the last value, so the first is lost without a word.",
        example: "two `parameters:` sections in one template.",
        source: "heat-semantics §1.2",
    },
    CodeInfo {
        code: NOT_HEAT_FILE,
        name: "NotHeatFile",
        summary: "a file named on the command line is not a template or an environment",
        what: "The file parses but has no template version key and no environment section.",
        why: "A file named explicitly was meant to be read as a Heat file; it is not one.",
        example: "`heatcap resolve -e playbook.yaml`.",
        source: "heat-semantics §1.1 (version keys), §2.1 (environment sections)",
    },
    CodeInfo {
        code: SYMLINK_LOOP,
        name: "SymlinkLoop",
        summary: "a symbolic link loop found while walking; not followed",
        what: "A directory link points back to one of its ancestors.",
        why: "Following it would walk forever; the rest of the tree is still walked.",
        example: "`ln -s .. loop` inside the tree.",
        source: "heatcap's walker",
    },
    CodeInfo {
        code: JINJA_SKIPPED,
        name: "JinjaSkipped",
        summary: "a Jinja source (`*.j2.yaml`) was skipped (its outputs, rendered in memory, are read instead)",
        what: "The file is a Jinja source, not YAML that Heat reads. In a TripleO tree heatcap can render (a roles file beside the sources) the note names the outputs it was rendered into, which are read in its place.",
        why: "Heat reads rendered templates. In a tree heatcap cannot render, give --roles-data or run heatcap on the rendered output.",
        example: "`overcloud.j2.yaml` in a tripleo-heat-templates checkout.",
        source: "heatcap's walker",
    },
    CodeInfo {
        code: NOT_FOUND,
        name: "PathNotFound",
        summary: "a path given does not exist (or a template an environment names)",
        what: "A path given on the command line, or a template an environment names, does not exist.",
        why: "Nothing can be read from it.",
        example: "`heatcap index ./no-such-dir`.",
        source: "heatcap's walker",
    },
    CodeInfo {
        code: JINJA_SOURCE,
        name: "JinjaSource",
        summary: "a file given as a template or environment is a Jinja source (`*.j2.yaml`)",
        what: "A file named on the command line (a root template, an environment, a path to check) is a Jinja source.",
        why: "Heat reads YAML, not Jinja: give the rendered file instead. In a TripleO tree heatcap renders in memory, the message names it (`overcloud.yaml` for `overcloud.j2.yaml`); in a tree it cannot render (no roles file), render it first (`heatcap render`, TripleO's tools/process-templates.py) or give --roles-data.",
        example: "`heatcap parameters -t overcloud.j2.yaml -e ...`.",
        source: "heatcap's walker; TripleO's rendering step",
    },
    CodeInfo {
        code: DIRECTORY_SKIPPED,
        name: "DirectorySkipped",
        summary: "a directory given without `-r`; skipped",
        what: "A directory was given to a command that walks directories only with `-r`.",
        why: "Without `-r` heatcap reads only the files named.",
        example: "`heatcap index templates/`.",
        source: "heatcap's walker",
    },
    CodeInfo {
        code: NOT_REGULAR,
        name: "NotRegularFile",
        summary: "a path is not a regular file (a FIFO, a device, a socket); it is not opened",
        what: "Every file heatcap reads is a regular file (a symbolic link to one counts).",
        why: "Opening a FIFO blocks until a writer comes, and a device such as /dev/zero never ends: heatcap checks before it opens, reports the file and goes on.",
        example: "`mkfifo x.yaml`, or `ln -s /dev/zero t.yaml`.",
        source: "heatcap's walker and loader",
    },
    CodeInfo {
        code: UNUSED_SUPPRESSION,
        name: "UnusedSuppression",
        summary: "a `# heatcap: ignore[...]` or `ignore-file[...]` comment suppressed nothing",
        what: "`validate` found no finding of a code the comment names on the line it covers (or, for `ignore-file`, in the file). Only codes that could have been reported in this run count: not those `--select`/`--ignore` leave out, ONAP codes without `--profile onap`, or composition codes (W6001, W6002, 7xxx) without `-e`. It is reported at the comment.",
        why: "A suppression that outlived its finding hides the next real problem on that line; removing it keeps the file honest (ruff's RUF100).",
        example: "`  # heatcap: ignore[E3004]` above a resource whose `get_resource` was fixed.",
        source: "heatcap's inline suppressions (docs/cli.md)",
    },
    CodeInfo {
        code: INVALID_SUPPRESSION,
        name: "InvalidSuppression",
        summary: "a `# heatcap:` comment that is not a valid suppression, or that names an unknown code",
        what: "A comment starting `heatcap:` must be `ignore[CODE, ...]` or `ignore-file[CODE, ...]`, each CODE a code of the catalogue (`heatcap rules`). Codes it names correctly still apply.",
        why: "A misspelt suppression suppresses nothing, silently; saying so is the only way the author learns.",
        example: "`# heatcap: ignore E3004` (no brackets), or `# heatcap: ignore[E9999]`.",
        source: "heatcap's inline suppressions (docs/cli.md)",
    },
    CodeInfo {
        code: RENDER_ERROR,
        name: "RenderError",
        summary: "a Jinja source, or the roles or network data it is rendered with, cannot be rendered",
        what: "heatcap renders a TripleO tree's `*.j2.yaml` sources as the tree's `tools/process-templates.py` does. A roles or network data file that is not a list of named mappings, a Jinja syntax error, an undefined value used where Jinja2 fails (an attribute of it, arithmetic), a missing include or a failing method call stops that output; so does a render past its bounds: an output that grows past `--max-size` characters (Heat's `max_template_size`, 524,288), stopped as soon as it does, and a render that uses up the engine's work allowed for one file (500,000 units of minijinja's fuel; a real TripleO file takes at most about 50,000). The message names the output, the position is in the source.",
        why: "The script stops at the first such error and writes a half-rendered tree; heatcap renders every other output, so the rest of the tree is still read, and `heatcap render` writes nothing. Heat refuses a template larger than its limit, and the bounds keep a hostile source (loops that multiply, loops that write millions of lines) to a fraction of a second and a few MB in every command, `serve` and `lsp`.",
        example: "`{{ role.name | nosuchfilter }}` in `puppet/role.role.j2.yaml`.",
        source: "TripleO's tools/process-templates.py; Jinja2's Environment defaults",
    },
    CodeInfo {
        code: RENDERED_ON_DISK_DIFFERS,
        name: "RenderedOnDiskDiffers",
        summary: "a TripleO tree's rendered files on disk differ from heatcap's render of its Jinja sources",
        what: "The tree holds both `*.j2.yaml` sources and rendered outputs (it was rendered in place by tools/process-templates.py), and heatcap's render of the sources, with the roles and network data named (the script's defaults unless given), is not the files on disk: an output differs (the position is its first differing line) or is not on disk. heatcap then answers for the files on disk, as Heat is given them; `heatcap render` writes its own render.",
        why: "The tree was rendered with other data (another network file, other roles) or its sources were changed since: `openstack stack create` deploys the files on disk, and an answer for another render would be about a different deployment. Give `--roles-data`/`--network-data` to answer for a render with the data you mean.",
        example: "A 2023 tree rendered with `-n network_data_default.yaml`, read without `--network-data`: heatcap's render uses the script's default `network-data-samples/default-network-isolation.yaml`.",
        source: "TripleO's tools/process-templates.py (`-r`, `-n`)",
    },
    CodeInfo {
        code: RENDERED_ON_DISK_SET_ASIDE,
        name: "RenderedOnDiskSetAside",
        summary: "with --roles-data or --network-data, the rendered files on disk heatcap's render replaces",
        what: "`--roles-data` or `--network-data` was given on a tree whose rendered outputs are on disk: heatcap answers for its render with that data, and lists the files on disk that differ from it and that it therefore does not read.",
        why: "The answer is not about the files on disk, which `openstack stack create` would deploy unless the tree is rendered again with that data.",
        example: "`heatcap parameters --network-data network_data_default.yaml -t overcloud.yaml` on a tree rendered with another network file.",
        source: "TripleO's tools/process-templates.py (`-r`, `-n`)",
    },
    CodeInfo {
        code: NOT_A_REPOSITORY,
        name: "NotARepository",
        summary: "--rev was given for a path that is not in a git repository with a working directory",
        what: "`--rev REV` (or a revision side of `diff`) reads the tree at REV from the git repository the path is in, found from the path up as git finds it; there is none, or it is bare. The command stops (exit 2).",
        why: "Without a repository there is no revision to read; heatcap does not guess another tree.",
        example: "`heatcap parameters --rev HEAD~1 -t /tmp/t/overcloud.yaml` where /tmp/t is no repository.",
        source: "git rev-parse (repository discovery)",
    },
    CodeInfo {
        code: UNKNOWN_REVISION,
        name: "UnknownRevision",
        summary: "the repository does not know the revision given with --rev (or a diff side); the message says what to fetch",
        what: "The revision is not a commit the repository knows as `git rev-parse` reads it (a branch, tag, hash or `HEAD~N`), or two revisions of `A...B` have no common ancestor. The command stops (exit 2). In a shallow clone the message says to fetch more history.",
        why: "The tree at a revision can only be read from objects the clone has.",
        example: "`heatcap index -r --rev no-such-tag .`; `--rev HEAD~5` in a clone made with `--depth 1`.",
        source: "git rev-parse",
    },
    CodeInfo {
        code: OBJECTS_MISSING,
        name: "ObjectsMissing",
        summary: "objects of the revision's tree are missing (a shallow or partial clone); the message says how to fetch them",
        what: "The revision is known, but its commit, tree or a file's blob is not in the repository's objects: a partial clone (`--filter=blob:none`) or a shallow one lacks it. heatcap reads objects and never fetches them; the command stops (exit 2).",
        why: "A tree read without some of its files would give answers about a tree that never existed.",
        example: "`heatcap parameters --rev v2 -t overcloud.yaml` in a clone made with `--filter=blob:none`.",
        source: "git partial clone and shallow clone (gitrepository-layout)",
    },
    CodeInfo {
        code: CAPABILITIES_NOT_MAPPING,
        name: "CapabilitiesNotMapping",
        summary: "`capabilities` is not a mapping; it is ignored",
        what: "The template's `capabilities` section is a scalar or a list.",
        why: "The capabilities annotation is a mapping of keys to values; anything else declares nothing.",
        example: "`capabilities: puppet`.",
        source: "capabilities.md §1",
    },
    CodeInfo {
        code: RESOURCE_TYPE_NOT_STRINGS,
        name: "ResourceTypeNotStrings",
        summary: "`capabilities.resource_type` is not a type name or a list of them",
        what: "`resource_type` holds something other than a string or a list of strings.",
        why: "Only type names can be matched against a registry key.",
        example: "`resource_type: {a: b}`.",
        source: "capabilities.md §1",
    },
    CodeInfo {
        code: LATER_NULL_IGNORED,
        name: "LaterNullIgnored",
        summary: "a later environment sets an entry to null; Heat ignores it, so it does not undo the mapping",
        what: "An environment after the first that maps a type to `null`.",
        why: "Heat's merge skips null values of later files, so the earlier mapping stays in force.",
        example: "`-e base.yaml -e off.yaml` where off.yaml has `OS::TripleO::Foo: null`.",
        source: "heat-semantics §2.11",
    },
    CodeInfo {
        code: RESOURCES_REPLACED,
        name: "ResourcesReplaced",
        summary: "a later environment's `resources:` section replaces the earlier one wholesale",
        what: "Two environments both have `resource_registry.resources`.",
        why: "Heat's merge is one level deep: the later `resources:` map replaces the earlier one, entries for other resources included.",
        example: "two files each with `resources: {my_server: {...}}`.",
        source: "heat-semantics §2.11",
    },
    CodeInfo {
        code: SECTION_NOT_MAPPING,
        name: "SectionNotMapping",
        summary: "`resource_registry` or `requires` is not a mapping",
        what: "The section is a scalar or a list.",
        why: "Heat crashes on a registry that is not a mapping (\"'list' object has no attribute 'items'\"); heatcap ignores the section.",
        example: "`resource_registry: []`.",
        source: "heat-semantics §2.1",
    },
    CodeInfo {
        code: INVALID_HOOK,
        name: "InvalidHook",
        summary: "a `hooks` or `restricted_actions` value Heat rejects (Heat's message)",
        what: "`hooks` and `restricted_actions` values, at any depth of the registry, are ones Heat accepts.",
        why: "Heat refuses the environment when it loads it.",
        example: "`hooks: [pre-launch]`.",
        source: "heat-semantics §2.3 (ResourceRegistry hooks and restricted_actions)",
    },
    CodeInfo {
        code: WRONG_SECTION,
        name: "WrongEnvironmentSection",
        summary: "an environment section Heat does not know (`requires` is heatcap's own and accepted)",
        what: "Every top-level key of an environment file is one of Heat's sections (`requires` is heatcap's own; `export` removes it).",
        why: "Heat rejects the file: `environment has wrong section \"<key>\"`.",
        example: "`resource_registy:` (a typo).",
        source: "heat-semantics §2.1 (environment_format.validate)",
    },
    CodeInfo {
        code: EMPTY_SECTION,
        name: "EmptyEnvironmentSection",
        summary: "an environment section whose value is null, which Heat rejects (`parameter_defaults:` with nothing under it)",
        what: "No section of an environment file is null.",
        why: "Heat rejects the file: `environment has empty section \"<key>\"`.",
        example: "`parameter_defaults:` with nothing under it.",
        source: "heat-semantics §2.1 (environment_format.validate)",
    },
    CodeInfo {
        code: INVALID_REQUIREMENT,
        name: "InvalidRequirement",
        summary: "a `requires` value is not a scalar or a list of scalars, so it asks for nothing",
        what: "Every `requires` value is a scalar or a list of scalars (\"any of these\").",
        why: "The capabilities specification allows nothing else; a mapping, a nested list or null would silently select nothing.",
        example: "`requires: {deployment: {puppet: true}}`.",
        source: "capabilities.md §2",
    },
    CodeInfo {
        code: ENVIRONMENT_NOT_MAPPING,
        name: "EnvironmentNotMapping",
        summary: "a file given as an environment is not a mapping (Heat: \"The environment is not a valid YAML mapping data type.\")",
        what: "An environment file's document is a mapping.",
        why: "Heat refuses the file before it reads anything of it.",
        example: "`- resource_registry: {...}` (a list at the top).",
        source: "heat-semantics §2.1",
    },
    CodeInfo {
        code: MISSING_TEMPLATE,
        name: "MissingTemplate",
        summary: "a type maps to a template that is missing or is not a template",
        what: "A registry entry, or a resource type that is a path, names a template file that does not exist, does not parse, or is not a template. Without `-e`, every `type` of a template checked that is a local template path (`.yaml`, `.template`, at any depth: a `ResourceGroup`'s `resource_def` too) names a readable file, relative to the template; remote URLs are not fetched.",
        why: "Heat fails the stack: the client cannot upload the file, or Heat cannot parse it (\"Could not fetch remote template\").",
        example: "`OS::TripleO::Compute: puppet/compute.yaml` with no such file.",
        source: "heat-semantics §3.1",
    },
    CodeInfo {
        code: CYCLE,
        name: "TemplateCycle",
        summary: "a template includes itself through its resources (a cycle)",
        what: "Following resource types through the registry (with Heat's child-environment rules) leads back to a template already being instantiated.",
        why: "Heat recurses until its depth limit and refuses the stack.",
        example: "`a.yaml` has a resource of type `OS::B`, which maps to `b.yaml`, which has a resource of type `a.yaml`.",
        source: "heat-semantics §3.4, §3.6",
    },
    CodeInfo {
        code: NESTED_TOO_DEEP,
        name: "NestedTooDeep",
        summary: "nested stacks deeper than Heat's limit of 5",
        what: "The composition nests provider templates deeper than `max_nested_stack_depth`.",
        why: "Heat: \"Recursion depth exceeds 5.\"",
        example: "six levels of templates that each nest the next.",
        source: "heat-semantics §3.6",
    },
    CodeInfo {
        code: UNRESOLVED,
        name: "UnresolvedType",
        summary: "a type could not be resolved: not found, alias loop, invalid value, or no or several matching candidates",
        what: "Looking a type up in the merged registry (and Heat's own types) gives no implementation, or a list-valued entry's `requires` selects zero or several candidates.",
        why: "Heat: \"The Resource Type (T) could not be found.\"; heatcap never guesses among candidates.",
        example: "`type: OS::TripleO::Missing` with no entry for it.",
        source: "heat-semantics §2.4, §2.7; capabilities.md §2",
    },
    CodeInfo {
        code: EXPORT_FILE,
        name: "ExportFileMissing",
        summary: "`export`: a file the export needs is missing or cannot be read (the root template, a `get_file` target)",
        what: "A file the exported tree must contain cannot be read.",
        why: "An incomplete tree is one python-heatclient cannot upload; `export` writes nothing instead.",
        example: "`export -t missing.yaml`.",
        source: "heat-semantics §2.12",
    },
    CodeInfo {
        code: MISSING_FILE,
        name: "MissingGetFile",
        summary: "a `get_file` target of a template checked or in the composition cannot be read (python-heatclient would fail to fetch it)",
        what: "Every literal `get_file` argument of a template checked (and, with `-e`, of every template in the composition) names a readable file, relative to the template; remote URLs are not fetched.",
        why: "python-heatclient reads every `get_file` target before it calls Heat; one missing file fails the request.",
        example: "`config: {get_file: scripts/missing.sh}`.",
        source: "heat-semantics §2.12",
    },
    CodeInfo {
        code: UNKNOWN_PROPERTY,
        name: "UnknownProperty",
        summary: "a resource passes a property its provider template does not declare as a parameter (Heat: \"Unknown Property X\", checked even by `template validate`)",
        what: "Every property a resource passes to a provider template is a parameter of that template. With `-e`, every template the composition reaches is checked; without, `validate` checks the resources whose type is a template path (as Heat's validate does with no environment).",
        why: "Heat refuses the stack, even in `template validate`: \"Unknown Property X\".",
        example: "`properties: {Flavour: m1.small}` where the template declares `Flavor`.",
        source: "heat-semantics §3.2",
    },
    CodeInfo {
        code: PROPERTY_UNSET,
        name: "PropertyUnset",
        summary: "a resource leaves a property unset that its provider template requires (a parameter without default that the environments' `parameter_defaults` do not set either); Heat fails at create with \"Property X not assigned\" unless an environment given at deploy time sets it",
        what: "Every parameter without a default of a provider template is passed by the resource or set by `parameter_defaults`.",
        why: "Heat's create fails with \"Property X not assigned\"; a warning, since deploy-time environments often set passwords.",
        example: "a provider template with `parameters: {KeyName: {type: string}}` used with no `KeyName` property.",
        source: "heat-semantics §3.2",
    },
    CodeInfo {
        code: ANNOTATION_MISMATCH,
        name: "AnnotationMismatch",
        summary: "a registry entry maps a type to a template whose `capabilities.resource_type` does not include that type",
        what: "A template that declares the types it implements is mapped only to those types.",
        why: "The template says it implements something else; the mapping is likely a mistake.",
        example: "`OS::TripleO::Compute: controller.yaml` where controller.yaml declares `resource_type: OS::TripleO::Controller`.",
        source: "capabilities.md §2 rule 1",
    },
    CodeInfo {
        code: UNSELECTABLE,
        name: "UnselectableCandidate",
        summary: "a candidate of a list-valued registry entry declares no capabilities while others share the list, so no `requires` can select it",
        what: "Every template candidate of a list-valued entry can be selected by some `requires`.",
        why: "A candidate that declares nothing is never a match once any key is relevant, so it can never be chosen among others.",
        example: "`OS::X: [a.yaml, b.yaml]` where b.yaml has no `capabilities`.",
        source: "capabilities.md §2 rules 2-4",
    },
    CodeInfo {
        code: OUTSIDE_TREE,
        name: "OutsideTree",
        summary: "`export` would read a file outside the template's and the environments' directories",
        what: "Every file an export reads (a registry target, a template path, a `get_file` target, after symbolic links) is under the root template's directory or an environment's directory, unless `--allow-outside`.",
        why: "An exported tree is handed to others; `get_file: /etc/shadow`, `../../../etc/passwd` or an in-tree link to a system file would copy secrets into it. Heat's client would read them too.",
        example: "`config: {get_file: /etc/passwd}` in a template being exported.",
        source: "heatcap's export confinement (the HTTP service will use the same rule)",
    },
    CodeInfo {
        code: TOO_MANY_RESOURCES,
        name: "TooManyResources",
        summary: "a template of the composition has more than 1,000 resources (Heat's `max_resources_per_stack`)",
        what: "Every stack of the composition has at most 1,000 resources. `validate` reports a template it checks as E3018 (at its `resources` key) and this code only for the templates the composition reaches that it does not check.",
        why: "Heat refuses the stack: \"Request limit exceeded: Maximum resources per stack exceeded.\"",
        example: "a generated template with 1,200 resources.",
        source: "heat-semantics §0.1 step 6, §1.3",
    },
    CodeInfo {
        code: UPLOAD_TOO_LARGE,
        name: "UploadTooLarge",
        summary: "a file python-heatclient uploads (a `get_file` target too) is larger than 524,288 characters",
        what: "Every file the client sends in `files` is within Heat's `max_template_size`.",
        why: "Heat parses every file in `files` when it merges environments, and refuses the request when one is over the limit, even a script read with `get_file`.",
        example: "`config: {get_file: big-script.sh}` where the script is 600 KB.",
        source: "heat-semantics §0.1 step 4, §1.3",
    },
    CodeInfo {
        code: INVALID_PARAMETER_VALUE,
        name: "InvalidParameterValue",
        summary: "a value an environment gives a parameter (`parameters`, `parameter_defaults`) that the parameter's type or constraints refuse",
        what: "With `-e`, every value the environments give a parameter of the composition is one the parameter accepts: at the root, the environments' `parameters` and `parameter_defaults`; in a nested stack, the `parameter_defaults` its parent does not override. The value is converted to the parameter's type (a `number` from text) and checked against its HOT constraints (`allowed_values` item by item for a list, `range`, `length`, `modulo`, `allowed_pattern`, and the custom constraints Heat checks without a cloud, such as `ip_addr`, as E3015 does; those that ask a cloud, such as `nova.flavor`, are not checked), as Heat checks it. It is reported where the environment sets the value, naming the template and the nested stack.",
        why: "Heat accepts the template at `template validate`, which does not check values, and refuses the stack at `stack create`, before it creates anything: \"Parameter 'count' is invalid: 20 is out of range (min: 1, max: 10)\" (a constraint's description replaces Heat's words); in a nested stack, where `parameter_defaults` become the parameter's default, \"Parameter 'x' is invalid: Invalid default v (...)\".",
        example: "`parameter_defaults: {NeutronNetworkType: vxlann}` where the template allows `vxlan` and `vlan`.",
        source: "heat/engine/parameters.py (Parameter.validate), heat/engine/constraints.py; recorded: tests/heat/env-value-verdicts.json",
    },
    CodeInfo {
        code: INVALID_PROVIDER_PROPERTY,
        name: "InvalidProviderProperty",
        summary: "a literal a resource passes to a template-path type's parameter that the parameter's type or constraints refuse",
        what: "A resource whose type is a template path (`type: nested.yaml`) passes each literal property value in a form the nested template's parameter accepts: Heat makes the parameters the resource's property schema (a `number` parameter a number property, with the parameter's constraints, the offline custom ones included), and converts and checks each value as it does a native property's (a number or a boolean given to a `comma_delimited_list` or `json` parameter is \"not a list\" or \"not a map\"; the constraints of those two types are not followed). Values computed by functions are not checked. Without `-e`, as E7007.",
        why: "Heat accepts the template at `template validate` and refuses the stack at `stack create`, before it creates anything: \"Property error: resources.child.properties.size: 30 is out of range (min: 1, max: 10)\".",
        example: "`type: nested/child.yaml` with `size: 30` where the child's `size` has `range: {min: 1, max: 10}`.",
        source: "heat/engine/resources/template_resource.py (properties schema from the template's parameters), heat/engine/properties.py; recorded: tests/heat/provider-value-verdicts.json",
    },
    CodeInfo {
        code: VALUE_MISSING_WHEN_ALONE,
        name: "ValueMissingWhenAlone",
        summary: "Heat's validate of the template alone refuses it for a parameter the composition passes",
        what: "With `-e`, an E2008 finding (a `get_param` Heat evaluates at validate names a parameter with no default) whose parameter an environment or a parent template passes: the composition validates, but `openstack orchestration template validate -t FILE` on the file alone fails.",
        why: "Heat refuses the file validated on its own (\"The Parameter (NAME) was not provided.\"), which a CI job validating templates one by one meets; deployed through the composition it works.",
        example: "A nested template whose condition reads `allowed_cidrs` (no default), which its parent passes as a property.",
        source: "Heat 27.0.1 heat/engine/parameters.py (Parameter.value: UserParameterMissing); recorded: tests/heat/missing-value-verdicts.json",
    },
    CodeInfo {
        code: ROOT_PARAMETER_UNSET,
        name: "RootParameterUnset",
        summary: "a parameter of the root template that nothing gives a value (no default, no environment `parameters` or `parameter_defaults`): Heat refuses the stack, and `preview` and `diff` (that side) with it",
        what: "Every parameter of the root template without a default has a value from the environments given to `preview` or `diff`.",
        why: "Heat refuses the create preview, the update preview and the stack: \"UserParameterMissing: The Parameter (X) was not provided.\"",
        example: "`parameters: {AdminPassword: {type: string, hidden: true}}` with no environment setting it.",
        source: "heat/engine/parameters.py (Parameter.value: UserParameterMissing); recorded: tests/heat/diff/unset-old.json, tests/heat/later/README.md (the preview values files)",
    },
    CodeInfo {
        code: UNKNOWN_USER_PARAMETER,
        name: "UnknownUserParameter",
        summary: "an environment's `parameters` section names a parameter the root template does not declare: Heat refuses the stack, and `preview` and `diff` (that side) with it",
        what: "Every name in an environment's `parameters` (unlike `parameter_defaults`) is a parameter of the root template.",
        why: "Heat refuses before anything else: \"UnknownUserParameter: The Parameter (X) was not defined in template.\"",
        example: "`parameters: {Flavor: m1.large}` for a root template without `Flavor`.",
        source: "heat/engine/parameters.py (Parameters._validate_user_parameters); recorded: tests/heat/diff/unknown-parameter.json",
    },
    CodeInfo {
        code: CATALOGUE_INVALID,
        name: "CatalogueInvalid",
        summary: "`capabilities-map.yaml` is not the catalogue's shape (topics, environment groups, environments with a `file`)",
        what: "A TripleO capabilities map lists `topics`, each with `environment_groups`, each with `environments`, each a mapping with a `file` (and a `title`, `description`, `requires` list); a group may say `mutually_exclusive`. A part that is not that shape is reported where it is and left out; the rest is read.",
        why: "tripleo-common's GetCapabilitiesAction failed on the whole map (\"Error parsing capabilities-map.yaml\") or on the first bad part (a KeyError), so the UI showed no environments at all.",
        example: "`environment_groups: {title: x}` (a mapping, not a list), or an environment without `file`.",
        source: "tripleo-common tripleo_common/actions/heat_capabilities.py (GetCapabilitiesAction, to 2019); ../shared/docs/tripleo-plans.md §4",
    },
    CodeInfo {
        code: CATALOGUE_DRIFT,
        name: "CatalogueDrift",
        summary: "a catalogue entry (or a `requires` item) names a file that is missing, exists only as its Jinja source (`.j2.yaml`), or is not an environment",
        what: "Each `file` of the capabilities map, and each environment a `requires` names, is a file of the tree relative to the map: one that exists nowhere, one whose Jinja source (`x.j2.yaml`) is there but no rendered `x.yaml`, neither on disk nor in heatcap's render of the tree (which every command reads), or one that is not a Heat environment, is reported at the name, with the kind of drift (`missing`, `source-only`, `not-environment`).",
        why: "The map was kept by hand and drifted from the tree: enabling such an entry makes the deployment fail when the client fetches the file (a source-only one exists only after the tree is rendered by tools/process-templates.py).",
        example: "`- file: environments/aide.yaml` in the 2018 map, a file the tree never had.",
        source: "tripleo-heat-templates 13d0057c capabilities-map.yaml; the study tripleo-plans.md §4",
    },
    CodeInfo {
        code: REQUIREMENT_MISSING,
        name: "RequirementMissing",
        summary: "an environment is enabled without an environment it `requires` (in the capabilities map); both are named",
        what: "The capabilities map says an environment requires others (`requires: [overcloud-resource-registry-puppet.yaml]`); an environment enabled (by `--plan` or `-e`) without one of them is reported at the `requires` item, naming both.",
        why: "tripleo-common never checked `requires`: the deployment went ahead without the base the environment overrides, and failed on the types it expected mapped, or deployed something else.",
        example: "`environments/net-bond-with-vlans.yaml` enabled without `environments/network-isolation.yaml`.",
        source: "tripleo-heat-templates capabilities-map.yaml (`requires`: \"an array of environments which are required by this environment\")",
    },
    CodeInfo {
        code: REQUIREMENT_CYCLE,
        name: "RequirementCycle",
        summary: "environments of the capabilities map require each other in a cycle, so no order puts each after what it requires",
        what: "Following `requires` from an environment leads back to it; the cycle is named in order and reported at the first environment's `requires`. The order heatcap computes keeps those environments in the order given.",
        why: "No merge order satisfies the map: one of the environments is merged before one it requires, whose values then win.",
        example: "`a.yaml` requires `b.yaml` and `b.yaml` requires `a.yaml`.",
        source: "tripleo-common tripleo_common/utils/plan.py (apply_environments_order, which looped over the list once); ../shared/docs/tripleo-plans.md §4.3",
    },
    CodeInfo {
        code: PLAN_INVALID,
        name: "PlanInvalid",
        summary: "a plan environment (`plan-environment.yaml`) tripleo-common fails on: not a mapping, `environments` not a list, an entry that is not a mapping, a `path` that is not a string, `passwords`, `derived_parameters` or `parameter_defaults` not a mapping, a mapping merged into a text",
        what: "`--plan` reads the plan as tripleo-common's `build_env_paths` did; where the Python would raise (a `TypeError` or an `AttributeError`), heatcap reports it at its place in the plan and goes on with what it can read (a mapping that `deep_update` cannot merge is taken as it is).",
        why: "tripleo-common's deployment failed with a Python error on such a plan.",
        example: "`passwords: ~` (`dict.update(None)`), or `parameter_defaults: {X: {a: 1}}` over `derived_parameters: {X: text}`.",
        source: "tripleo-common tripleo_common/utils/plan.py (build_env_paths, 2018-04 to 2021-03); python-heatclient heatclient/common/template_utils.py (deep_update)",
    },
    CodeInfo {
        code: PLAN_ENTRY_DROPPED,
        name: "PlanEntryDropped",
        summary: "something a plan environment names that tripleo-common silently leaves out: an `environments` entry with neither a `path` nor `data` that is not empty, or no `template`",
        what: "An entry of `environments` counts only with a truthy `path` or `data`; others are dropped without a word. A plan without `template` makes tripleo-common fetch the container itself as the root template.",
        why: "The environment the user meant to enable is not deployed, and nothing says so.",
        example: "`environments: [{path: ''}]`.",
        source: "tripleo-common tripleo_common/utils/plan.py (build_env_paths), tripleo_common/utils/template.py (build_heat_args)",
    },
    CodeInfo {
        code: REQUIREMENT_AFTER,
        name: "RequirementAfter",
        summary: "an environment is merged before an environment it `requires` (in the capabilities map), so the required one's values win",
        what: "Environments merge in order, later ones winning; an environment that requires another overrides it, so it must come after it. heatcap names both and the order that satisfies every `requires` (`heatcap catalogue` prints it).",
        why: "The base overrides the environment meant to override it: its registry entries and parameter values are silently undone. tripleo-common's sorter (`apply_environments_order`) was meant to fix this but could leave it so.",
        example: "`environments: [{path: environments/puppet-pacemaker.yaml}, {path: overcloud-resource-registry-puppet.yaml}]`.",
        source: "tripleo-common tripleo_common/utils/plan.py (apply_environments_order); ../shared/docs/tripleo-plans.md §4.3",
    },
    CodeInfo {
        code: EXCLUSIVE_ENABLED,
        name: "ExclusiveEnabled",
        summary: "two environments of one mutually exclusive group of the capabilities map are both enabled; the later one's entries win",
        what: "A group with `mutually_exclusive: true` (or, in a map that never writes the key, a group of two or more environments) offers one choice; enabling two of its environments is reported at the second's entry in the map, naming both and which one wins (the later, as Heat merges them).",
        why: "tripleo-ui unticked the other members of such a group, so TripleO never deployed both; given by hand, the later environment silently overrides what the earlier one maps.",
        example: "`environments/network-isolation.yaml` and `environments/network-isolation-v6.yaml` both enabled.",
        source: "tripleo-heat-templates capabilities-map.yaml (`mutually_exclusive`); the study tripleo-plans.md §5.3",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_is_listed_once_in_order() {
        let codes: Vec<&str> = CODES.iter().map(|c| c.code.0).collect();
        let mut sorted = codes.clone();
        sorted.sort_by_key(|c| (&c[1..], c.as_bytes()[0]));
        sorted.dedup();
        assert_eq!(codes, sorted);
    }
}
