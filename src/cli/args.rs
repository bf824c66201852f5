//! Flags as typed (clap derive). [`super::config`] validates them.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};

use crate::report::Format;

/// The formats of the query commands (find, summary, index, resolve, options).
pub const QUERY_FORMATS: &[Format] = &[
    Format::Plain,
    Format::Json,
    Format::Yaml,
    Format::Table,
    Format::Jsonl,
];
/// `parameters`' formats.
pub const PARAMETERS_FORMATS: &[Format] = &[
    Format::Table,
    Format::Plain,
    Format::Json,
    Format::Yaml,
    Format::Heat,
    Format::HeatResourceTree,
];
/// `preview`'s formats.
pub const PREVIEW_FORMATS: &[Format] = &[Format::Table, Format::Json, Format::Yaml, Format::Heat];
/// `diff`'s formats.
pub const DIFF_FORMATS: &[Format] = &[
    Format::Table,
    Format::Json,
    Format::Yaml,
    Format::Heat,
    Format::Markdown,
    Format::Github,
    Format::Sarif,
];
/// `export`'s formats.
pub const EXPORT_FORMATS: &[Format] = &[Format::Plain, Format::Json, Format::HeatApi];
/// `rules`' formats.
pub(crate) const RULES_FORMATS: &[Format] = &[
    Format::Plain,
    Format::Json,
    Format::Table,
    Format::Markdown,
    Format::Jsonl,
];
/// `resource-type list`'s formats.
pub const TYPE_LIST_FORMATS: &[Format] = &[
    Format::Table,
    Format::Plain,
    Format::Json,
    Format::Yaml,
    Format::Jsonl,
    Format::Heat,
];
/// `resource-type show`'s formats (with `--template-type`: yaml, json and
/// heat).
pub const TYPE_SHOW_FORMATS: &[Format] = &[
    Format::Table,
    Format::Plain,
    Format::Json,
    Format::Yaml,
    Format::Heat,
];
/// `validate`'s formats.
pub const VALIDATE_FORMATS: &[Format] = &[
    Format::Plain,
    Format::Json,
    Format::Table,
    Format::Sarif,
    Format::Github,
    Format::Jsonl,
    Format::Full,
];

/// A `--format` parser that takes the formats `allowed` (and their aliases).
///
/// # Panics
/// Never: clap passes only the possible values, and each names a format.
pub fn format_parser(allowed: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(allowed.iter().map(|f| {
        PossibleValue::new(f.name())
            .aliases(f.aliases())
            .help(f.help())
    }))
    .map(|name| Format::from_name(&name).expect("clap only passes the possible values"))
}

const EXIT_CODES: &str = "\
Exit status:
  0  success (capabilities-find: at least one template matched)
  1  capabilities-find: nothing matched;
     index, template-capabilities: a file could not be read or parsed
       (the output is still complete);
     resolve, options, parameters: something is unresolved or an error
       was found;
     catalogue: an error was found (an environment enabled without one
       it requires, a map that cannot be read);
     any command given --plan: the plan has an error;
     export: refused (nothing written);
     validate: a finding at or above --fail-on;
     resource-type show: no such type, or Heat refuses the answer asked
       (a hidden type with --format heat or --template-type)
  2  usage error (rules: a code that matches nothing; man: no such
     command; schema: no such schema; `-`, standard input, named twice; a broken configuration
     file, named with its line), or the output could not be written; a
     closed pipe exits 0";

/// Discover, resolve and validate OpenStack Heat template compositions.
#[derive(Debug, Parser)]
#[command(name = "heatcap", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Read paths that start with FROM under TO instead (repeatable; e.g.
    /// `/usr/share/openstack-tripleo-heat-templates=.` on a checkout).
    #[arg(long = "templates-root", value_name = "FROM=TO", global = true)]
    pub templates_root: Vec<String>,
    #[command(flatten)]
    pub display: DisplayArgs,
}

/// How output looks on a terminal (every command; docs/cli.md "Terminal
/// output").
#[derive(Debug, Clone, Args)]
pub struct DisplayArgs {
    /// Colour severities and codes: `auto` on a terminal unless NO_COLOR
    /// is set, `always` (even in a pipe), `never`.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorWhen::Auto,
        global = true
    )]
    pub color: ColorWhen,
    /// Fit tables into N columns (0: never wrap). Default: COLUMNS, else
    /// the terminal's width; in a pipe lines stay whole.
    #[arg(long, value_name = "N", global = true)]
    pub max_width: Option<u16>,
}

/// When to colour (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE or
    /// FORCE_COLOR colour a pipe too).
    Auto,
    /// Always, even in a pipe and with NO_COLOR.
    Always,
    /// Never.
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the templates whose capabilities match every -c KEY=VALUE.
    CapabilitiesFind(FindArgs),
    /// Summarize the capabilities of templates (and of the templates environments name).
    TemplateCapabilities(SummaryArgs),
    /// Print the whole index: every file, its status, capabilities and registry.
    Index(IndexArgs),
    /// Show what environments pick for every type a composition uses, and why.
    Resolve(ResolveArgs),
    /// List every choice a user can make: types with several implementations.
    Options(OptionsArgs),
    /// Write a tree (or print the API body) that stock Heat accepts.
    Export(ExportArgs),
    /// Write a TripleO tree rendered as its tools/process-templates.py -o DIR writes it.
    Render(RenderCmdArgs),
    /// Every parameter the chosen composition needs, and where each value comes from.
    Parameters(ParametersArgs),
    /// Heat's create preview: every resource of every nested stack, its properties resolved as Heat resolves them before create.
    Preview(PreviewArgs),
    /// What an update from one composition to another does, as Heat's update preview decides it, and why.
    #[command(mut_arg("template", |a| a
        .required_unless_present(clap::builder::Resettable::<clap::Id>::Reset)
        .help("The root template (required unless --plan names one, or .heatcap.yaml names deployments)")))]
    Diff(DiffArgs),
    /// Check templates against Heat's rules; findings as path:line:col lines.
    Validate(ValidateArgs),
    /// A TripleO tree's environment catalogue (capabilities-map.yaml):
    /// topics, groups, environments, drift from the tree, and the order
    /// of the enabled ones.
    Catalogue(CatalogueArgs),
    /// List every diagnostic code, or explain one (what, why, example, source).
    Rules(RulesArgs),
    /// Print the JSON Schema of a JSON output, or list the schemas.
    Schema(SchemaArgs),
    /// Heat 27's resource types, offline: list them, or show one's
    /// properties and attributes (`openstack orchestration resource type`).
    ResourceType(ResourceTypeArgs),
    /// Answer Heat's template API and heatcap's questions over HTTP
    /// (loopback, Heat's port 8004, unless told otherwise).
    Serve(ServeArgs),
    /// Run a language server for editors on standard input and output:
    /// findings as you type, hover, go to definition, completion.
    Lsp(LspArgs),
    /// Print the shell completion script for SHELL.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of heatcap, or of one command.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port, printed on
    /// stderr). An address other than loopback needs --allow-remote.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8004")]
    pub listen: std::net::SocketAddr,
    /// Listen on an address other than loopback: anyone who can reach it
    /// can read the served roots.
    #[arg(long)]
    pub allow_remote: bool,
    /// A directory heatcap's own answers (/heatcap/v1/...) read; paths in
    /// requests are relative to one (repeatable; named by its last part).
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// An environment file every heatcap answer starts from, before the
    /// request's own (repeatable, merged in order).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// A TripleO plan environment (`plan-environment.yaml`): its
    /// environments (as tripleo-common built them) come before the -e ones
    /// in every answer, and its `template` is the root template of the
    /// composing routes when a request names none; its directory is read
    /// as a root is.
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// Heat's max_nested_stack_depth for the compositions answered.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_nested_depth: usize,
    /// Longest time one request may take, in seconds (then Heat's 500
    /// fault document).
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub request_timeout: u64,
    /// Longest time a client may take to send a request's headers, in
    /// seconds (then the connection is closed).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub header_timeout: u64,
    /// Most requests computed at once (others wait); the number of cores
    /// when absent.
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// An environment file compositions are checked with and types
    /// resolved by (repeatable, merged in order); replaces the
    /// configuration file's `environments`.
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// The root template whose composition is checked on every save
    /// (default: the saved template); replaces the configuration file's
    /// `template`.
    #[arg(short = 't', long, value_name = "TEMPLATE")]
    pub template: Option<PathBuf>,
    /// Accepted for editors that pass it; standard input and output are
    /// always used.
    #[arg(long, hide = true)]
    pub stdio: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct ResourceTypeArgs {
    #[command(subcommand)]
    pub command: ResourceTypeCommand,
}

#[derive(Debug, Subcommand)]
pub enum ResourceTypeCommand {
    /// List Heat's resource types (`openstack orchestration resource type list`).
    List(TypeListArgs),
    /// Show a resource type's properties and attributes, or the provider
    /// template Heat generates for it (`... resource type show`).
    Show(TypeShowArgs),
}

#[derive(Debug, Args)]
pub struct TypeListArgs {
    /// Only the types matching KEY=VALUE: `name` (a regular expression
    /// matched at the start of the name), `support_status` (SUPPORTED,
    /// DEPRECATED, UNSUPPORTED) or `version` (the version it has that
    /// status since). Repeatable, or `;`-separated in one value; all must
    /// match.
    #[arg(long, value_name = "KEY=VALUE")]
    pub filter: Vec<String>,
    /// Also show each type's description (its first paragraph in table
    /// and plain).
    #[arg(long)]
    pub long: bool,
    /// Also list hidden types (Heat never does; it refuses them in
    /// templates), with a Status column.
    #[arg(long)]
    pub all: bool,
    /// Output format (`heat`: the body of Heat's list API).
    #[arg(long, value_parser = format_parser(TYPE_LIST_FORMATS), default_value = "table")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct TypeShowArgs {
    /// The resource type (an alias of Heat's default environment, such as
    /// OS::Ceilometer::Alarm, shows the type it stands for).
    #[arg(value_name = "TYPE")]
    pub type_name: String,
    /// Print the provider template Heat generates for the type instead:
    /// `hot` or `cfn`.
    #[arg(long, value_enum, value_name = "TEMPLATE_TYPE", ignore_case = true)]
    pub template_type: Option<TemplateTypeArg>,
    /// Also show descriptions (of the type whole, of every property and
    /// attribute; `--format heat`: the type's `description`).
    #[arg(long, conflicts_with = "template_type")]
    pub long: bool,
    /// Output format (default: `table`; with --template-type `yaml`, as
    /// the openstack client prints it; `heat`: the body of Heat's API).
    #[arg(long, value_parser = format_parser(TYPE_SHOW_FORMATS))]
    pub format: Option<Format>,
}

/// `--template-type`: the dialect of the generated provider template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TemplateTypeArg {
    /// HOT (`heat_template_version: 2016-10-14`).
    Hot,
    /// CloudFormation-compatible (`HeatTemplateFormatVersion: 2012-12-12`).
    Cfn,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command: print its page (`heatcap-validate(1)`) instead.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The output (`index`, `resolve.jsonl`, ...; `heatcap schema` lists
    /// them): print its JSON Schema (draft 2020-12).
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Codes or code prefixes to show (`E7004`, `W6`); all when none.
    #[arg(value_name = "CODE")]
    pub codes: Vec<String>,
    /// Output format (`markdown`: the page docs/rules.md).
    #[arg(long, value_parser = format_parser(RULES_FORMATS), default_value = "plain")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct CatalogueArgs {
    /// The tree (a directory with capabilities-map.yaml) or the map
    /// itself.
    #[arg(value_name = "TREE", default_value = ".")]
    pub tree: PathBuf,
    /// A TripleO plan environment: its file environments are the enabled
    /// ones (checked against `requires`, and ordered).
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// An environment to enable (after the plan's; repeatable).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// Largest file read, in characters (Heat's max_template_size).
    #[arg(long, value_name = "CHARS", default_value_t = crate::load::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    #[command(flatten)]
    pub rev: RevArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// How files are found.
#[derive(Debug, Clone, Args)]
pub struct WalkArgs {
    /// Walk directories recursively.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Only files matching this glob (repeatable; replaces the default
    /// *.yaml, *.yml, *.json, *.template).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip files and directories matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also enter directories whose name starts with a dot.
    #[arg(long)]
    pub hidden: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How files are read: the largest one, the data a TripleO tree's
/// Jinja sources are rendered with, the revision.
#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// Largest file read, in characters (Heat's max_template_size).
    #[arg(long, value_name = "CHARS", default_value_t = crate::load::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    #[command(flatten)]
    pub render: RenderArgs,
    #[command(flatten)]
    pub rev: RevArgs,
}

/// Which revision of the tree is read.
#[derive(Debug, Clone, Default, Args)]
pub struct RevArgs {
    /// Read the tree as it is at this git revision (a branch, tag, hash,
    /// `HEAD~1`) of the repository the first path is in, from git's
    /// objects without a checkout; paths outside the repository are read
    /// as they are.
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
}

/// What the index queries (capabilities-find, template-capabilities,
/// index) share after their own flags: which templates count, how files
/// are found, the configuration file, how results are printed.
#[derive(Debug, Clone, Args)]
pub struct QueryArgs {
    /// Count only templates that declare a type in
    /// `capabilities.resource_type` (the specification's strict answer);
    /// by default a template an environment maps a type to is a candidate
    /// too, as if it declared it.
    #[arg(long)]
    pub declared_only: bool,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The composition `export` and `parameters` evaluate: a root template,
/// environments, a plan.
#[derive(Debug, Clone, Args)]
pub struct CompositionArgs {
    /// The root template (required unless --plan names one).
    #[arg(
        short = 't',
        long = "template",
        value_name = "TEMPLATE",
        required_unless_present = "plan"
    )]
    pub template: Option<PathBuf>,
    /// An environment file, merged in the order given (repeatable).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// A TripleO plan environment (`plan-environment.yaml`): its
    /// environments (files in order, inline `data` ones, its
    /// `parameter_defaults`, its `resource_registry`, as tripleo-common
    /// built them) come before the `-e` ones, and its `template` is the
    /// root template unless `-t` is given.
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
}

impl CompositionArgs {
    /// The root template: `-t`, or the plan's (the command line fills it
    /// in from `--plan` before the command runs, or refuses the run).
    pub fn template(&self) -> &std::path::Path {
        self.template.as_deref().unwrap_or(std::path::Path::new(""))
    }

    /// A usage error when the template or an environment is standard
    /// input (`what` names the command, which reads them by path).
    pub fn no_stdin(&self, what: &str) -> Result<(), crate::error::Error> {
        super::config::no_stdin(
            std::iter::once(&self.template().to_path_buf()).chain(&self.environments),
            what,
        )
    }
}

impl EvaluationArgs {
    /// How the diagnostics are printed on stderr: as `format`, at the
    /// verbosity `-q`/`-v` ask for.
    pub fn diagnostics_output(&self, format: crate::report::Format) -> super::config::Output {
        super::config::Output {
            format,
            min_severity: super::config::verbosity(self.output.quiet, self.output.verbose),
        }
    }
}

/// How `export` and `parameters` evaluate a composition and report on it:
/// the render data, stderr's verbosity, Heat's nesting limit.
#[derive(Debug, Clone, Args)]
pub struct EvaluationArgs {
    #[command(flatten)]
    pub render: RenderArgs,
    #[command(flatten)]
    pub output: QuietArgs,
    /// Heat's max_nested_stack_depth: nested stacks deeper than this are
    /// refused (Heat's default; TripleO's undercloud used 7).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_nested_depth: usize,
}

/// The data a TripleO tree's Jinja sources are rendered with (a tree with
/// `*.j2.yaml` sources and a roles file is rendered in memory, as its
/// tools/process-templates.py renders it).
#[derive(Debug, Clone, Default, Args)]
pub struct RenderArgs {
    /// The roles file TripleO trees are rendered with [default: the tree's
    /// roles_data.yaml].
    #[arg(long, value_name = "FILE")]
    pub roles_data: Option<PathBuf>,
    /// The network data file TripleO trees are rendered with [default: the
    /// one the tree's script names, e.g. network_data.yaml].
    #[arg(long, value_name = "FILE")]
    pub network_data: Option<PathBuf>,
}

/// Which configuration file is read (`.heatcap.yaml`).
#[derive(Debug, Clone, Default, Args)]
pub struct ConfigArgs {
    /// Read this configuration file instead of the `.heatcap.yaml` found
    /// from the working directory up.
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    pub no_config: bool,
}

/// How results and diagnostics are printed.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_parser = format_parser(QUERY_FORMATS))]
    pub format: Option<Format>,
    /// Print no diagnostics on stderr.
    #[arg(short = 'q', long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also print notes (skipped files) on stderr.
    #[arg(short = 'v', long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct FindArgs {
    /// A capability the template must have: KEY=VALUE (repeatable; all must match).
    #[arg(
        short = 'c',
        long = "capability",
        value_name = "KEY=VALUE",
        required = true
    )]
    pub conditions: Vec<String>,
    /// Files and directories to search (`-`: standard input).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub query: QueryArgs,
}

#[derive(Debug, Args)]
pub struct SummaryArgs {
    /// A template (or, with -r, a directory of templates) to summarize
    /// (repeatable; `-`: standard input).
    #[arg(
        short = 'f',
        long = "file",
        value_name = "FILE",
        required_unless_present = "environments"
    )]
    pub files: Vec<PathBuf>,
    /// An environment whose resource_registry templates are summarized too (repeatable).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// Map each resource type to the templates whose resource_type names it.
    #[arg(long)]
    pub by_type: bool,
    #[command(flatten)]
    pub query: QueryArgs,
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Files and directories to index (`-`: standard input).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub query: QueryArgs,
}

#[derive(Debug, Args)]
#[command(group(
    clap::ArgGroup::new("what")
        .required(true)
        .multiple(true)
        .args(["template", "environments", "type_name", "plan"])
))]
pub struct ResolveArgs {
    /// The root template (`-`: standard input); without it, the registry
    /// entries themselves are resolved.
    #[arg(short = 't', long = "template", value_name = "TEMPLATE")]
    pub template: Option<PathBuf>,
    /// An environment file, merged in the order given as Heat merges them (repeatable).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// A TripleO plan environment (`plan-environment.yaml`): its
    /// environments (files in order, inline `data` ones, its
    /// `parameter_defaults`, its `resource_registry`, as tripleo-common
    /// built them) come before the `-e` ones, and its `template` is the
    /// root template unless `-t` is given.
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// Answer one lookup: the implementation of this type.
    #[arg(long = "type", value_name = "TYPE")]
    pub type_name: Option<String>,
    /// In tables and plain output, also list types Heat provides that no
    /// environment maps (JSON always has them).
    #[arg(long)]
    pub all: bool,
    /// With --type: the resource name (per-resource entries apply).
    #[arg(long, value_name = "NAME", requires = "type_name")]
    pub resource: Option<String>,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Heat's max_nested_stack_depth: nested stacks deeper than this are
    /// refused (Heat's default; TripleO's undercloud used 7).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_nested_depth: usize,
}

#[derive(Debug, Args)]
#[command(group(
    clap::ArgGroup::new("what")
        .required(true)
        .multiple(true)
        .args(["environments", "directories", "plan"])
))]
pub struct OptionsArgs {
    /// An environment file, merged in the order given (repeatable).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// A TripleO plan environment (`plan-environment.yaml`): its
    /// environments (files in order, inline `data` ones, its
    /// `parameter_defaults`, its `resource_registry`, as tripleo-common
    /// built them) come before the `-e` ones, and its `template` is the
    /// root template unless `-t` is given.
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// A directory whose templates offer implementations through their
    /// `resource_type` annotation (walked recursively; repeatable).
    #[arg(short = 'r', long = "templates", value_name = "DIR")]
    pub directories: Vec<PathBuf>,
    /// Count only templates that declare a type in
    /// `capabilities.resource_type` (the specification's strict answer);
    /// by default a template an environment maps a type to is a candidate
    /// too, as if it declared it.
    #[arg(long)]
    pub declared_only: bool,
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub composition: CompositionArgs,
    #[command(flatten)]
    pub rev: RevArgs,
    /// The directory to write the tree into (created; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write into a directory that is not empty.
    #[arg(long)]
    pub force: bool,
    /// Also read files outside the root template's and the environments'
    /// directories (refused otherwise: E7011).
    #[arg(long)]
    pub allow_outside: bool,
    /// What to produce: `plain` writes the tree to --out and lists the
    /// files written, `json` lists them as JSON, `heat-api` writes nothing
    /// and prints the body python-heatclient would send.
    #[arg(long, value_parser = format_parser(EXPORT_FORMATS), default_value = "plain")]
    pub format: Format,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
}

#[derive(Debug, Args)]
pub struct RenderCmdArgs {
    /// The top of a tripleo-heat-templates tree (with `*.j2.yaml` sources
    /// and a roles file).
    #[arg(value_name = "TREE")]
    pub tree: PathBuf,
    /// The directory to write the rendered tree into (created; must be
    /// empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write into a directory that is not empty.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub render: RenderArgs,
    #[command(flatten)]
    pub rev: RevArgs,
    #[command(flatten)]
    pub output: QuietArgs,
}

/// Diagnostics verbosity only (for commands with their own formats).
#[derive(Debug, Clone, Args)]
pub struct QuietArgs {
    /// Print no diagnostics on stderr.
    #[arg(short = 'q', long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also print notes (skipped files) on stderr.
    #[arg(short = 'v', long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct ParametersArgs {
    #[command(flatten)]
    pub composition: CompositionArgs,
    #[command(flatten)]
    pub rev: RevArgs,
    /// Use this template for this type, as a UI selection would (repeatable).
    #[arg(long, value_name = "TYPE=PATH")]
    pub choose: Vec<String>,
    /// Show what switching TYPE from template PATH_A to PATH_B changes.
    #[arg(long, value_name = "TYPE=PATH_A,PATH_B")]
    pub diff: Option<String>,
    /// Output format (`heat`: the document Heat's validate API returns).
    #[arg(long, value_parser = format_parser(PARAMETERS_FORMATS))]
    pub format: Option<Format>,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
}

#[derive(Debug, Args)]
pub struct PreviewArgs {
    #[command(flatten)]
    pub composition: CompositionArgs,
    #[command(flatten)]
    pub rev: RevArgs,
    /// Use this template for this type, as a UI selection would (repeatable).
    #[arg(long, value_name = "TYPE=PATH")]
    pub choose: Vec<String>,
    /// The root stack's name [default: the root template's file name
    /// without its extension].
    #[arg(long, value_name = "NAME")]
    pub stack_name: Option<String>,
    /// Output format (`heat`: the document Heat's stack preview API
    /// returns, as `openstack stack create --dry-run` receives it).
    #[arg(long, value_parser = format_parser(PREVIEW_FORMATS))]
    pub format: Option<Format>,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The new side: `-t`, `-e`, `--plan`.
    #[command(flatten)]
    pub composition: CompositionArgs,
    /// Use this template for this type on the new side, as a UI selection
    /// would (repeatable).
    #[arg(long, value_name = "TYPE=PATH")]
    pub choose: Vec<String>,
    /// Revisions to compare, as `git diff` reads them: `REV` (from REV to
    /// the working tree), `A..B` (from A to B), `A...B` (from their merge
    /// base to B); an empty side is `HEAD`.
    #[arg(value_name = "REVS", conflicts_with_all = ["from", "to"])]
    pub revs: Option<String>,
    /// The old side: a directory (its relative template and environment
    /// paths are read in DIR, absolute ones as they are) or, when no such
    /// directory exists, a git revision of the repository the template is
    /// in (read from git's objects) [default: the new side's tree].
    #[arg(long, value_name = "REV|DIR")]
    pub from: Option<PathBuf>,
    /// The new side: a directory or a git revision, as `--from` [default:
    /// the working tree as on disk].
    #[arg(long, value_name = "REV|DIR")]
    pub to: Option<PathBuf>,
    /// The old side's root template [default: the new side's].
    #[arg(long, value_name = "TEMPLATE")]
    pub from_template: Option<PathBuf>,
    /// An environment of the old side (repeatable, merged in order): when
    /// given, the old side uses these instead of the `-e` ones.
    #[arg(long, value_name = "ENV")]
    pub from_environment: Vec<PathBuf>,
    /// The old side's plan environment (its environments before the old
    /// side's, its template unless `--from-template`).
    #[arg(long, value_name = "PLAN")]
    pub from_plan: Option<PathBuf>,
    /// A `--choose` of the old side (repeatable): when given, the old side
    /// uses these instead of the `--choose` ones.
    #[arg(long, value_name = "TYPE=PATH")]
    pub from_choose: Vec<String>,
    /// The stack's name [default: the new root template's file name
    /// without its extension].
    #[arg(long, value_name = "NAME")]
    pub stack_name: Option<String>,
    /// Output format (`heat`: the document Heat's update preview API
    /// returns, `openstack stack update --dry-run --show-nested`).
    #[arg(long, value_parser = format_parser(DIFF_FORMATS))]
    pub format: Option<Format>,
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
    /// The interface section and CI: `--fail-on`, `--all`, the
    /// configuration file's deployments.
    #[command(flatten)]
    pub interface: InterfaceArgs,
}

/// `diff`'s interface section and its CI use (kept together).
#[derive(Debug, Clone, Args)]
pub struct InterfaceArgs {
    /// Exit 1 when the interface section has a finding at or above this
    /// severity (`never`: only Heat's refusal or an error does).
    #[arg(long, value_enum, default_value_t = DiffFailOn::Breaking)]
    pub fail_on: DiffFailOn,
    /// List the interface section's info findings too (optional parameters
    /// added, descriptions changed, ...); they are always counted.
    #[arg(long)]
    pub all: bool,
    /// Which configuration file names the deployments checked when no
    /// template is given (its `deployments`).
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// The lowest interface severity that fails `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFailOn {
    /// A breaking change.
    Breaking,
    /// A warning or worse.
    Warning,
    /// Any finding.
    Info,
    /// None: the findings never fail the run.
    Never,
}

/// The lowest severity that fails the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Warning,
    Error,
}

/// Which rule sets `validate` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileArg {
    /// HOT, CFN and environment rules.
    Hot,
    /// Those plus the ONAP VNF requirements (each directory one VNF package;
    /// *.env files are included).
    Onap,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files and directories to check (`-`: standard input).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// An environment (repeatable, merged in order): compose every template
    /// checked with it and report the composition rules (E7xxx, W6xxx).
    #[arg(short = 'e', long = "environment", value_name = "ENV")]
    pub environments: Vec<PathBuf>,
    /// A TripleO plan environment (`plan-environment.yaml`): its
    /// environments (files in order, inline `data` ones, its
    /// `parameter_defaults`, its `resource_registry`, as tripleo-common
    /// built them) come before the `-e` ones, (its `template` is not
    /// added to the files checked).
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<PathBuf>,
    /// Rule set: `onap` adds the ONAP VNF requirements to the HOT rules
    /// [default: hot].
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Run only rules whose code starts with this (repeatable: `E3`, `W5001`).
    #[arg(long, value_name = "PREFIX")]
    pub select: Vec<String>,
    /// Skip rules whose code starts with this (repeatable).
    #[arg(long, value_name = "PREFIX")]
    pub ignore: Vec<String>,
    /// Exit 1 when a finding is at least this severe [default: error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Output format (`plain`, also called `text`: `path:line:col: CODE
    /// severity: message` lines; `full`: each with its source lines).
    #[arg(long, value_parser = format_parser(VALIDATE_FORMATS), default_value = "plain")]
    pub format: Format,
    /// Ignore `# heatcap: ignore[...]` comments: report every finding.
    #[arg(long)]
    pub no_inline_suppress: bool,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print no summary on stderr.
    #[arg(short = 'q', long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say which configuration file is used (validate prints every
    /// finding, notes included, already).
    #[arg(short = 'v', long)]
    pub verbose: bool,
    /// Heat's max_nested_stack_depth: nested stacks deeper than this are
    /// refused (Heat's default; TripleO's undercloud used 7).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_nested_depth: usize,
}
