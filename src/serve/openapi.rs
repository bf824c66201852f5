//! The OpenAPI 3.1 document of heatcap's own endpoints (and of Heat's
//! validate, whose answer heatcap builds): each response schema is the
//! JSON Schema of the same command's JSON output (`report::schema`,
//! generated from the output types), so the document cannot drift from
//! what is served. docs/openapi.json holds a copy (a unit test keeps it
//! equal; `HEATCAP_UPDATE_DOCS=1` rewrites it).

use serde_json::{json, Map, Value};

/// One endpoint: path, summary, its query parameters (name, required,
/// repeatable, description), the schema of its answer, and the other
/// `format`s it takes with their answers' schemas (the default first).
struct Endpoint {
    path: &'static str,
    summary: &'static str,
    params: &'static [(&'static str, bool, bool, &'static str)],
    schema: &'static str,
    formats: &'static [(&'static str, &'static str)],
}

const ROOT: (&str, bool, bool, &str) = (
    "root",
    false,
    false,
    "The served root (its name, see /heatcap/v1/roots); the first when absent.",
);
const ENV: (&str, bool, bool, &str) = (
    "environment",
    false,
    true,
    "An environment file, relative to the root; repeatable, merged in order.",
);
const PATH: (&str, bool, bool, &str) = (
    "path",
    false,
    true,
    "A file or directory relative to the root; repeatable; the root when absent.",
);
const RECURSIVE: (&str, bool, bool, &str) = (
    "recursive",
    false,
    false,
    "true: walk directories recursively (-r).",
);
const TEMPLATE: (&str, bool, bool, &str) = (
    "template",
    false,
    false,
    "The root template, relative to the root; the plan's when absent (`plan`, or `serve --plan`), else required.",
);
const PLAN: (&str, bool, bool, &str) = (
    "plan",
    false,
    false,
    "A TripleO plan environment relative to the root (`--plan`; see /heatcap/v1/plans): its environments come first (in place of `serve --plan`'s), its template is the root unless `template` is given; no such file is a 404, a plan with an error a 400.",
);

const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        path: "/heatcap/v1/index",
        summary: "`heatcap index PATH... [-r] --format json`",
        params: &[ROOT, PATH, RECURSIVE],
        schema: "index",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/capabilities/find",
        summary: "`heatcap capabilities-find -c KEY=VALUE... PATH... --format json`",
        params: &[
            ROOT,
            (
                "c",
                false,
                true,
                "A condition KEY=VALUE; repeatable, all must hold.",
            ),
            PATH,
            RECURSIVE,
        ],
        schema: "capabilities-find",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/capabilities/summary",
        summary: "`heatcap template-capabilities PATH... -e ENV... --format json`",
        params: &[ROOT, PATH, PLAN, ENV, RECURSIVE],
        schema: "template-capabilities",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/options",
        summary: "`heatcap options -e ENV... [--templates DIR]... --format json`",
        params: &[
            ROOT,
            PLAN,
            ENV,
            (
                "templates",
                false,
                true,
                "A directory whose templates offer implementations; repeatable.",
            ),
        ],
        schema: "options",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/resolve",
        summary: "`heatcap resolve [-t TEMPLATE] -e ENV... [--type T] --format json`",
        params: &[
            ROOT,
            PLAN,
            TEMPLATE,
            ENV,
            ("type", false, false, "One resource type to look up."),
            (
                "resource",
                false,
                false,
                "The resource name the lookup is for (with type).",
            ),
            ("all", false, false, "true: every registry entry (--all)."),
        ],
        schema: "resolve",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/parameters",
        summary: "`heatcap parameters -t TEMPLATE -e ENV... --format json|heat|heat-resource-tree`",
        params: &[
            ROOT,
            PLAN,
            TEMPLATE,
            ENV,
            (
                "choose",
                false,
                true,
                "TYPE=PATH: a UI's choice for a type; repeatable.",
            ),
        ],
        schema: "parameters",
        formats: &[
            ("json", "parameters"),
            ("heat", "parameters-heat"),
            ("heat-resource-tree", "parameters-heat-resource-tree"),
        ],
    },
    Endpoint {
        path: "/heatcap/v1/validate",
        summary: "`heatcap validate PATH... -e ENV... --format json`",
        params: &[ROOT, PATH, PLAN, ENV, RECURSIVE],
        schema: "validate",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/catalogue",
        summary: "`heatcap catalogue ROOT [--plan PLAN] -e ENV... --format json` (the composition page's step 2)",
        params: &[ROOT, PLAN, ENV],
        schema: "catalogue",
        formats: &[],
    },
    Endpoint {
        path: "/heatcap/v1/export",
        summary: "`heatcap export -t TEMPLATE -e ENV... --format heat-api`, or (format=tarball) the tree `--out DIR` writes as a tar archive",
        params: &[ROOT, PLAN, TEMPLATE, ENV],
        schema: "export-heat-api",
        formats: &[("heat-api", "export-heat-api"), ("tarball", "")],
    },
    Endpoint {
        path: "/heatcap/v1/preview",
        summary: "`heatcap preview -t TEMPLATE -e ENV... [--choose TYPE=PATH]... [--stack-name NAME] --format json|heat`",
        params: &[
            ROOT,
            PLAN,
            TEMPLATE,
            ENV,
            (
                "choose",
                false,
                true,
                "TYPE=PATH: a UI's choice for a type; repeatable.",
            ),
            (
                "stack_name",
                false,
                false,
                "The root stack's name (--stack-name); the root template's file name without its extension when absent.",
            ),
        ],
        schema: "preview",
        formats: &[("json", "preview"), ("heat", "preview-heat")],
    },
    Endpoint {
        path: "/heatcap/v1/diff",
        summary: "`heatcap diff -t TEMPLATE -e ENV... [--choose TYPE=PATH]... [--from-template T] [--from-environment ENV]... [--from-plan P] [--from-choose TYPE=PATH]... [--stack-name NAME] --format json|heat`: what an update from the old side (from_*) to the new side does. POST: each side as a body, Heat's preview request or a served root's files.",
        params: &[
            ROOT,
            PLAN,
            TEMPLATE,
            ENV,
            (
                "choose",
                false,
                true,
                "TYPE=PATH: a UI's choice for a type on the new side; repeatable.",
            ),
            (
                "from_plan",
                false,
                false,
                "The old side's TripleO plan relative to the root (--from-plan): its environments first, its template unless from_template.",
            ),
            (
                "from_template",
                false,
                false,
                "The old side's root template relative to the root (--from-template); the new side's when absent.",
            ),
            (
                "from_environment",
                false,
                true,
                "An environment of the old side relative to the root (--from-environment); repeatable; when given, in place of `environment`.",
            ),
            (
                "from_choose",
                false,
                true,
                "TYPE=PATH on the old side (--from-choose); repeatable; when given, in place of `choose`.",
            ),
            (
                "stack_name",
                false,
                false,
                "The root stack's name (--stack-name); the new root template's file name without its extension when absent.",
            ),
            (
                "from",
                false,
                false,
                "A git revision of the repository the root is in (--from REV): the old side's files as they are at it, read from git's objects; the new side's tree when absent.",
            ),
            (
                "to",
                false,
                false,
                "A git revision (--to REV): the new side's files as they are at it; the files on disk when absent.",
            ),
        ],
        schema: "diff",
        formats: &[("json", "diff"), ("heat", "diff-heat")],
    },
];

/// The routes that also answer a POST body.
const POSTED: &[&str] = &["/heatcap/v1/parameters", "/heatcap/v1/resolve"];

/// A body as Heat's validate (and python-heatclient) sends it.
fn heat_request_schema() -> Value {
    json!({
        "description": "Heat's InstantiationData (heat/api/openstack/v1/stacks.py): the template, the files it and the environments name (by the key the template or environment writes, or python-heatclient's absolute file:// URL), the user environment and environment_files (keys into files, merged in order after environment).",
        "type": "object",
        "required": ["template"],
        "properties": {
            "template": {"type": ["object", "string"], "description": "The root template, as a mapping or its text."},
            "files": {"description": "A mapping of key to text (another value is sent as its JSON text); anything else is ignored, as Heat ignores it."},
            "environment": {"description": "A mapping, or its text; ignored when environment_files is not empty."},
            "environment_files": {"description": "A list of keys into files (other items, and anything else, are ignored)."},
            "parameters": {"description": "A mapping merged into the environment's parameters; anything else is ignored."}
        }
    })
}

/// The document of Heat's `POST /v1/{tenant}/stacks/preview` (`preview
/// --format heat`; docs/output.md), or Heat's refusal as that command
/// prints it.
fn preview_heat_schema() -> Value {
    json!({
        "description": "Heat's create preview (heat/engine/api.py format_stack_preview under the API's {\"stack\": ...}); nested stacks as lists of their resources. `preview --format heat` prints {\"Error\": \"Class: message\"} where Heat refuses the preview.",
        "oneOf": [
            {
                "type": "object",
                "required": ["stack"],
                "properties": {"stack": {
                    "type": "object",
                    "required": ["stack_name", "resources", "parameters", "outputs", "links"],
                    "properties": {
                        "stack_name": {"type": "string"},
                        "description": {"type": "string"},
                        "parameters": {"type": "object"},
                        "outputs": {"type": "array", "items": {"type": "object"}},
                        "resources": {"$ref": "#/components/schemas/preview-heat.Resources"},
                        "links": {"type": "array", "items": {"type": "object"}},
                        "disable_rollback": {"type": "boolean"},
                        "timeout_mins": {"type": ["integer", "null"]},
                        "tags": {"type": "array", "items": {"type": "string"}}
                    }
                }}
            },
            {
                "type": "object",
                "required": ["Error"],
                "properties": {"Error": {"type": "string"}}
            }
        ]
    })
}

/// A stack's resources in Heat's preview: each resource, or a nested
/// stack as the list of its own.
fn preview_heat_resources_schema() -> Value {
    json!({
        "type": "array",
        "items": {"anyOf": [
            {
                "type": "object",
                "required": ["resource_name", "resource_type", "properties", "required_by", "stack_name"],
                "properties": {
                    "resource_name": {"type": "string"},
                    "resource_type": {"type": "string"},
                    "properties": {"type": "object"},
                    "required_by": {"type": "array", "items": {"type": "string"}},
                    "stack_name": {"type": "string"},
                    "parent_resource": {"type": "string"}
                }
            },
            {"$ref": "#/components/schemas/preview-heat.Resources"}
        ]}
    })
}

/// `POST /v1/{tenant_id}/stacks/preview`: Heat's own route, answered from
/// the body (`openstack stack create --dry-run`).
fn stack_preview_path() -> Value {
    json!({"post": {
        "summary": "Heat's create preview (`openstack stack create --dry-run`), from the request body alone: Heat's `POST /v1/{tenant_id}/stacks/preview`; the document `heatcap preview --format heat` prints for the same composition, in this request's project and with this server's address in `links`.",
        "operationId": "stack_preview",
        "parameters": [{
            "name": "tenant_id",
            "in": "path",
            "required": true,
            "description": "Any project (heatcap checks no token).",
            "schema": {"type": "string", "pattern": "^[^/]+$"}
        }],
        "requestBody": {
            "required": true,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HeatPreviewRequest"}}}
        },
        "responses": {
            "200": {
                "description": "Heat's preview document.",
                "content": {"application/json": {"schema": {"allOf": [
                    {"$ref": "#/components/schemas/preview-heat"},
                    {"required": ["stack"]}
                ]}}}
            },
            "400": fault_response("Heat's refusal: no stack name, no template, an invalid stack name or argument, a parameter without a value (UserParameterMissing), an invalid template version, a validation error (StackValidationFailed)."),
            "500": fault_response("A limit (time) or a fault of heatcap's.")
        }
    }})
}

/// `#/$defs/X` → `#/components/schemas/{prefix}.X`, everywhere in `v`.
fn rewrite_refs(v: &mut Value, prefix: &str) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get_mut("$ref") {
                if let Some(name) = r.strip_prefix("#/$defs/") {
                    *r = format!("#/components/schemas/{prefix}.{name}");
                } else if r == "#" {
                    *r = format!("#/components/schemas/{prefix}");
                }
            }
            m.values_mut().for_each(|x| rewrite_refs(x, prefix));
        }
        Value::Array(items) => items.iter_mut().for_each(|x| rewrite_refs(x, prefix)),
        _ => {}
    }
}

/// A command's output schema, split into components.
fn add_schema(name: &str, components: &mut Map<String, Value>) {
    let Some(Value::Object(mut s)) = crate::report::schema(name) else {
        return;
    };
    for k in ["$schema", "$id", "$comment"] {
        s.remove(k);
    }
    if let Some(Value::Object(defs)) = s.remove("$defs") {
        for (k, mut d) in defs {
            rewrite_refs(&mut d, name);
            components.insert(format!("{name}.{k}"), d);
        }
    }
    let mut root = Value::Object(s);
    rewrite_refs(&mut root, name);
    components.insert(name.to_owned(), root);
}

fn parameter(p: &(&str, bool, bool, &str)) -> Value {
    let (name, required, repeated, description) = *p;
    // What the handler refuses with a 400 before reading anything.
    let item = match name {
        "c" => json!({"type": "string", "pattern": "^\\s*[^=\\s][^=]*="}),
        "choose" | "from_choose" => json!({"type": "string", "pattern": "^[^=]+=.+$"}),
        _ => json!({"type": "string"}),
    };
    let schema = if repeated {
        json!({"type": "array", "items": item})
    } else if matches!(name, "recursive" | "all") {
        json!({"type": "string", "enum": ["true", "false"]})
    } else {
        json!({"type": "string"})
    };
    let mut v = json!({
        "name": name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": schema,
    });
    if repeated {
        v["style"] = json!("form");
        v["explode"] = json!(true);
    }
    v
}

/// The 200 answer's media types: JSON, and a tar archive for a
/// `tarball` format.
fn content(e: &Endpoint, json_schema: &Value) -> Value {
    let mut c = json!({"application/json": {"schema": json_schema}});
    if e.formats.iter().any(|f| f.0 == "tarball") {
        c["application/x-tar"] =
            json!({"schema": {"type": "string", "contentMediaType": "application/x-tar"}});
    }
    c
}

fn fault_response(what: &str) -> Value {
    json!({
        "description": what,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Fault"}}}
    })
}

/// A route's POST operation: its GET one, over the request body.
fn posted(get: &Value, operation_id: &str, summary: &str) -> Value {
    // The same question over a body, as Heat's validate takes it.
    let mut post = get.clone();
    post["operationId"] = json!(format!("{operation_id}_body"));
    post["summary"] = json!(format!("{summary} over the request body (template, files, environment, environment_files, parameters, as Heat's validate takes them; nothing is read from disk)"));
    if let Some(Value::Array(ps)) = post.get_mut("parameters") {
        ps.retain(|p| {
            !matches!(
                p["name"].as_str(),
                Some("root" | "plan" | "template" | "environment")
            )
        });
    }
    post["requestBody"] = json!({
        "required": true,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HeatRequest"}}}
    });
    post
}

/// One endpoint's path item (its GET, and its POST when it takes a
/// body), its schemas added to `components`.
fn endpoint(e: &Endpoint, components: &mut Map<String, Value>) -> Value {
    add_schema(e.schema, components);
    let mut params: Vec<Value> = e.params.iter().map(parameter).collect();
    let mut answer = json!({"$ref": format!("#/components/schemas/{}", e.schema)});
    if !e.formats.is_empty() {
        params.push(json!({
            "name": "format",
            "in": "query",
            "required": false,
            "description": "The command's --format; the first when absent.",
            "schema": {"type": "string", "enum": e.formats.iter().map(|f| f.0).collect::<Vec<_>>()},
        }));
        let mut each = Vec::new();
        for (_, schema) in e.formats.iter().filter(|f| !f.1.is_empty()) {
            add_schema(schema, components);
            each.push(json!({"$ref": format!("#/components/schemas/{schema}")}));
        }
        if each.len() > 1 {
            answer = json!({"anyOf": each});
        }
    }
    let operation_id = e.path.trim_start_matches("/heatcap/v1/").replace('/', "_");
    let mut item = json!({"get": {
        "summary": e.summary,
        "operationId": operation_id,
        "parameters": params,
        "responses": {
            "200": {
                "description": "The command's JSON output (a format without a schema: the bytes the command writes).",
                "content": content(e, &answer)
            },
            "400": fault_response("A malformed request, or (export) the errors that refuse it."),
            "403": fault_response("A path that would leave the served root."),
            "404": fault_response("No such root, or no such plan."),
            "500": fault_response("A limit (time) or a fault of heatcap's.")
        }
    }});
    if POSTED.contains(&e.path) {
        item["post"] = posted(&item["get"], &operation_id, e.summary);
    }
    if e.path == "/heatcap/v1/diff" {
        item["post"] = diff_posted(&item["get"]);
    }
    item
}

/// The document, as served at `/heatcap/v1/openapi.json`.
pub(crate) fn value() -> Value {
    let mut components = Map::new();
    components.insert(
        "Fault".to_owned(),
        json!({
            "description": "Heat's fault document (heat/api/middleware/fault.py).",
            "type": "object",
            "required": ["code", "title", "explanation", "error"],
            "properties": {
                "code": {"type": "integer"},
                "title": {"type": "string"},
                "explanation": {"type": "string"},
                "error": {
                    "type": "object",
                    "required": ["type", "traceback"],
                    "properties": {
                        "type": {"type": "string"},
                        "traceback": {"type": "null"},
                        "message": {"type": "string"}
                    }
                }
            }
        }),
    );
    let mut paths = Map::new();
    for e in ENDPOINTS {
        paths.insert(e.path.to_owned(), endpoint(e, &mut components));
    }
    components.insert("HeatRequest".to_owned(), heat_request_schema());
    add_stack_preview(&mut components, &mut paths);
    add_diff(&mut components);
    paths.insert(
        "/heatcap/v1/roots".to_owned(),
        json!({"get": {
            "summary": "The served roots and their names.",
            "operationId": "roots",
            "responses": {"200": {
                "description": "The roots.",
                "content": {"application/json": {"schema": {
                    "type": "object",
                    "required": ["roots"],
                    "properties": {"roots": {"type": "array", "items": {
                        "type": "object",
                        "required": ["name", "path"],
                        "properties": {"name": {"type": "string"}, "path": {"type": "string"}}
                    }}}
                }}}
            }}
        }}),
    );
    paths.insert("/heatcap/v1/plans".to_owned(), plans_path());
    paths.extend(super::page::openapi_paths());
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "heatcap serve",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "heatcap's answers over the served roots (docs/cli.md, `serve`). Each answer is the JSON the command prints for the same question; errors are Heat's fault documents. Heat's own API (/v1/{tenant_id}/...) is Heat's: see Heat's API reference; the create preview, which heatcap computes, is described here too."
        },
        "paths": paths,
        "components": {"schemas": components}
    })
}

/// Heat's `POST /v1/{tenant_id}/stacks/preview` (its path, its request
/// body) and the schemas of the preview's Heat document.
fn add_stack_preview(components: &mut Map<String, Value>, paths: &mut Map<String, Value>) {
    components.insert("preview-heat".to_owned(), preview_heat_schema());
    components.insert(
        "preview-heat.Resources".to_owned(),
        preview_heat_resources_schema(),
    );
    components.insert(
        "HeatPreviewRequest".to_owned(),
        json!({
            "description": "What `openstack stack create --dry-run` sends: Heat's InstantiationData (see HeatRequest) with the stack's name, and the stack's arguments Heat checks (timeout_mins, tags as a comma-separated text, disable_rollback) and shows in the preview.",
            "allOf": [
                {"$ref": "#/components/schemas/HeatRequest"},
                {
                    "type": "object",
                    "required": ["stack_name"],
                    "properties": {
                        "stack_name": {"type": "string", "description": "The root stack's name: a letter, then letters, digits, `_`, `.`, `-` (255 characters at most)."}
                    }
                }
            ]
        }),
    );
    paths.insert(
        "/v1/{tenant_id}/stacks/preview".to_owned(),
        stack_preview_path(),
    );
}

/// `POST /heatcap/v1/diff`: its GET operation with the two sides in
/// the body (the query keeps `root`, `stack_name`, `format`).
fn diff_posted(get: &Value) -> Value {
    let mut post = get.clone();
    post["operationId"] = json!("diff_body");
    post["summary"] = json!("`heatcap diff` over two sides given in the body: `from` (the old side) and `to` (the new), each Heat's preview request (nothing read from disk) or `{\"served\": {...}}` (a served root's files, and an environment of the request's own merged last)");
    if let Some(Value::Array(ps)) = post.get_mut("parameters") {
        ps.retain(|p| matches!(p["name"].as_str(), Some("root" | "stack_name" | "format")));
    }
    post["requestBody"] = json!({
        "required": true,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DiffRequest"}}}
    });
    post
}

/// The schemas of `/heatcap/v1/diff`: its body, and `diff --format
/// heat`'s document.
fn add_diff(components: &mut Map<String, Value>) {
    components.insert(
        "diff-heat".to_owned(),
        json!({
            "description": "Heat's update preview (`openstack stack update --dry-run --show-nested`; heat/engine/service.py preview_update_stack): every resource of every nested stack in one of five lists, each entry format_stack_resource's. `diff --format heat` prints {\"Error\": \"Class: message\"} where Heat refuses the update preview.",
            "oneOf": [
                {
                    "type": "object",
                    "required": ["resource_changes"],
                    "properties": {"resource_changes": {
                        "type": "object",
                        "required": ["added", "deleted", "replaced", "updated", "unchanged"],
                        "additionalProperties": {"type": "array", "items": {
                            "type": "object",
                            "required": ["resource_name", "resource_type", "stack_name"],
                            "properties": {
                                "resource_name": {"type": "string"},
                                "resource_type": {"type": "string"},
                                "stack_name": {"type": "string"},
                                "parent_resource": {"type": "string"}
                            }
                        }}
                    }}
                },
                {
                    "type": "object",
                    "required": ["Error"],
                    "properties": {"Error": {"type": "string"}}
                }
            ]
        }),
    );
    components.insert(
        "DiffServedSide".to_owned(),
        json!({
            "description": "One side from a served root, as GET /heatcap/v1/diff takes the new side in its query.",
            "type": "object",
            "properties": {
                "root": {"type": "string", "description": "The served root (its name); the query's `root`, else the first, when absent."},
                "plan": {"type": "string", "description": "A TripleO plan relative to the root: its environments first, its template unless `template`."},
                "template": {"type": "string", "description": "The root template relative to the root; the plan's (or `serve --plan`'s) when absent, else required."},
                "environments": {"type": "array", "items": {"type": "string"}, "description": "Environment files relative to the root, merged in order after the plan's and the service's."},
                "choose": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}, "description": "Type → template relative to the root: a UI's picks."},
                "environment": {"type": ["object", "string"], "description": "An environment of the request's own (a mapping or its text), merged last, read as `heatcap-environment.yaml` in the root (the composition page's generated environment: its picks and values)."}
            }
        }),
    );
    components.insert(
        "DiffRequest".to_owned(),
        json!({
            "description": "The two sides of the update: each Heat's preview request body (HeatPreviewRequest, its stack_name optional) or {\"served\": DiffServedSide}.",
            "type": "object",
            "required": ["from", "to"],
            "properties": {
                "from": {"$ref": "#/components/schemas/DiffSide"},
                "to": {"$ref": "#/components/schemas/DiffSide"},
                "interface": {"type": "boolean", "default": true, "description": "Whether the answer carries the interface section (what `heatcap diff` prints without --all); false answers the resources alone, sooner."}
            }
        }),
    );
    components.insert(
        "DiffSide".to_owned(),
        json!({
            "oneOf": [
                {
                    "type": "object",
                    "required": ["served"],
                    "properties": {"served": {"$ref": "#/components/schemas/DiffServedSide"}}
                },
                {
                    "allOf": [
                        {"$ref": "#/components/schemas/HeatRequest"},
                        {"not": {"required": ["served"]}},
                        {"type": "object", "properties": {"stack_name": {"type": "string"}}}
                    ]
                }
            ]
        }),
    );
}

/// `GET /heatcap/v1/plans`: the plan environments of a root.
fn plans_path() -> Value {
    json!({"get": {
        "summary": "The TripleO plan environments of a root (files with tripleo-common's plan shape: a `template` and an `environments` list), each as `--plan` reads it; pass one as `plan` to the other routes.",
        "operationId": "plans",
        "parameters": [parameter(&ROOT)],
        "responses": {
            "200": {
                "description": "The plans, by path.",
                "content": {"application/json": {"schema": {
                    "type": "object",
                    "required": ["plans"],
                    "properties": {"plans": {"type": "array", "items": {
                        "type": "object",
                        "required": ["path", "name", "description", "template", "environments", "diagnostics"],
                        "properties": {
                            "path": {"type": "string", "description": "The plan file (the root as served, joined with its path)."},
                            "name": {"type": ["string", "null"]},
                            "description": {"type": ["string", "null"]},
                            "template": {"type": ["string", "null"], "description": "Its root template, beside the plan."},
                            "environments": {"type": "array", "description": "In tripleo-common's order: its `path` entries, its `data` entries, its merged parameter_defaults, its resource_registry.", "items": {
                                "type": "object",
                                "required": ["path", "file"],
                                "properties": {
                                    "path": {"type": "string", "description": "A file, or a part of the plan (`PLAN#parameter_defaults`, `PLAN#environments[N]`, `PLAN#resource_registry`)."},
                                    "file": {"type": "boolean", "description": "false for a part of the plan."}
                                }
                            }},
                            "diagnostics": {"type": "array", "description": "Its findings (an error: the other routes refuse it), as the commands' JSON gives them.", "items": {"type": "object"}}
                        }
                    }}}
                }}}
            },
            "404": fault_response("No such root."),
            "500": fault_response("A limit (time) or a fault of heatcap's.")
        }
    }})
}

/// The document's text: indented by two spaces, then a newline.
pub(crate) fn document() -> String {
    let mut out = serde_json::to_string_pretty(&value()).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/openapi.json is the served document (HEATCAP_UPDATE_DOCS=1
    /// rewrites it).
    #[test]
    fn committed_document_is_current() {
        let path = "docs/openapi.json";
        let now = document();
        if std::env::var_os("HEATCAP_UPDATE_DOCS").is_some() {
            std::fs::write(path, &now).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == now,
            "docs/openapi.json is stale: HEATCAP_UPDATE_DOCS=1 cargo test --lib serve::openapi"
        );
    }

    #[test]
    fn every_reference_resolves() {
        let doc = value();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let text = doc.to_string();
        for piece in text.split("\"#/components/schemas/").skip(1) {
            let name = &piece[..piece.find('"').unwrap()];
            assert!(schemas.contains_key(name), "{name}");
        }
        assert!(!text.contains("#/$defs/"));
    }
}
