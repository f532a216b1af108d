//! The OpenAPI 3.1 document of the JSON API, served at `GET /api/openapi.json`.
//!
//! It is generated, not written: every schema comes from the request and response types
//! themselves (`schemars`, JSON Schema 2020-12, which OpenAPI 3.1 uses as it is), and the
//! paths from [`crate::games::GAMES`] and the generic routes of [`crate::games`]. Requests are
//! described as the server reads them (fields with defaults may be left out), answers as it
//! writes them. Each game's types are named with its prefix (`Twenty48_PositionRequest`,
//! `Snake_out_Snapshot`: `_out_` marks an answer's form of a type).

use std::sync::OnceLock;

use bits::live::{self, Game};
use schemars::generate::{Contract, SchemaGenerator, SchemaSettings};
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use drop7::api::contract::Drop7;
use samegame::api::live::contract::SameGame;
use snake::api::contract::Snake;
use tetris::api::contract::Tetris;
use twenty48::api::contract::Twenty48;

use crate::games::GameInfo;

/// The document, built once.
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(build)
}

/// One family of schemas: a generator whose definitions go into `components.schemas` under
/// `prefix`.
struct Part {
    generator: SchemaGenerator,
    prefix: String,
}

impl Part {
    fn new(prefix: &str, contract: Contract) -> Part {
        let settings = SchemaSettings::draft2020_12().with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
            s.contract = contract;
        });
        Part { generator: settings.into_generator(), prefix: prefix.into() }
    }

    /// The schema of `T` (a reference where `T` is named).
    fn schema<T: JsonSchema>(&mut self) -> Value {
        let mut v = self.generator.subschema_for::<T>().to_value();
        rename_refs(&mut v, &self.prefix);
        v
    }

    /// Moves the definitions into `schemas`, renamed.
    fn finish(mut self, schemas: &mut Map<String, Value>) {
        for (name, mut v) in self.generator.take_definitions(true) {
            rename_refs(&mut v, &self.prefix);
            schemas.insert(format!("{}{name}", self.prefix), v);
        }
    }
}

const REF: &str = "#/components/schemas/";

/// Gives every `$ref` into the components the part's prefix.
fn rename_refs(v: &mut Value, prefix: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(s) if k == "$ref" => {
                        if let Some(name) = s.strip_prefix(REF) {
                            *s = format!("{REF}{prefix}{name}");
                        }
                    }
                    _ => rename_refs(x, prefix),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename_refs(x, prefix)),
        _ => {}
    }
}

fn error_ref() -> Value {
    json!({ "$ref": format!("{REF}Error") })
}

/// An operation's answers: `ok` with JSON schema `schema`, anything else a one-line error.
fn answers(ok: &str, schema: Value) -> Value {
    json!({
        "200": { "description": ok, "content": { "application/json": { "schema": schema } } },
        "default": {
            "description": "An error: 400 bad input (the message names the field), 404, 405, \
                            408 (a body too slow), 413 (too large), 414, 500 (a solver failed), \
                            503 (the server is busy or the job ran out of time)",
            "content": { "application/json": { "schema": error_ref() } }
        }
    })
}

fn post(summary: &str, id: String, tag: &str, body: Value, ok: &str, out: Value) -> Value {
    json!({ "post": {
        "summary": summary,
        "operationId": id,
        "tags": [tag],
        "requestBody": {
            "required": true,
            "content": { "application/json": { "schema": body } }
        },
        "responses": answers(ok, out),
    }})
}

/// The body of `frames`, as the route reads it: `record` is required (any JSON is read, and
/// another game's record is named in the error), `index` picks one record of a list.
#[derive(JsonSchema)]
#[schemars(rename = "FramesRequest")]
#[allow(dead_code)]
struct FramesBody<R> {
    /// The record, or a list of records.
    record: R,
    /// Which record of a list (0 for the first).
    #[serde(default)]
    index: usize,
}

/// The paths of one game, and its schemas.
fn game<G: Game>(paths: &mut Map<String, Value>, schemas: &mut Map<String, Value>, tag: &str) {
    let mut inp = Part::new(&format!("{tag}_"), Contract::Deserialize);
    let mut out = Part::new(&format!("{tag}_out_"), Contract::Serialize);
    let base = format!("/api/{}", G::NAME);
    let title = G::TITLE;
    paths.insert(
        format!("{base}/position"),
        post(
            &format!("{title}: the position after a list of moves"),
            format!("{tag}_position"),
            title,
            inp.schema::<live::PositionRequest<G>>(),
            "The position, its legal moves and status (with the timeline and the record on request)",
            out.schema::<live::PositionResponse<G>>(),
        ),
    );
    paths.insert(
        format!("{base}/record"),
        post(
            &format!("{title}: the record file of a game, as the CLI writes it"),
            format!("{tag}_record"),
            title,
            inp.schema::<live::PositionRequest<G>>(),
            "The record (what `bitarcade <game> replay` reads)",
            out.schema::<G::Record>(),
        ),
    );
    paths.insert(
        format!("{base}/frames"),
        post(
            &format!("{title}: a record's game and its every frame"),
            format!("{tag}_frames"),
            title,
            inp.schema::<FramesBody<G::Record>>(),
            "The record's game, with every frame",
            out.schema::<live::FramesResponse<G>>(),
        ),
    );
    paths.insert(
        format!("{base}/hint"),
        post(
            &format!("{title}: the solver's move for a position"),
            format!("{tag}_hint"),
            title,
            inp.schema::<live::HintRequest<G>>(),
            "The solver's move, each move's value where the game has values, and its detail",
            out.schema::<live::Hint<G::Detail>>(),
        ),
    );
    let search = out.schema::<G::Search>();
    paths.insert(
        format!("{base}/check"),
        post(
            &format!("{title}: a position and a search checked, the search as the caps clamp it"),
            format!("{tag}_check"),
            title,
            inp.schema::<live::HintRequest<G>>(),
            "The request is good; the search the server would run",
            json!({
                "type": "object",
                "properties": { "ok": { "const": true }, "search": search },
                "required": ["ok", "search"]
            }),
        ),
    );
    // Registered so that readers find the schema of `r`.
    inp.schema::<live::AutoRequest<G>>();
    paths.insert(
        format!("{base}/auto"),
        json!({ "get": {
            "summary": format!("{title}: the solver plays on, streamed as server-sent events"),
            "description": format!(
                "Events: `queued`, `progress`, `steps` (batches of `{{move, frame, score}}`), \
                 then `done` (an auto response) or `failed` (`{{error}}`). The stream ends when \
                 the game ends, at `max_moves`, at the deadline or when the client leaves. \
                 `r` is the auto request as JSON (schema `{tag}_AutoRequest`)."),
            "operationId": format!("{tag}_auto"),
            "tags": [title],
            "parameters": [
                { "name": "r", "in": "query", "required": false,
                  "description": "The auto request, as JSON (absent: a new game on the defaults)",
                  "schema": { "type": "string" } },
                { "name": "seconds", "in": "query", "required": false,
                  "description": "The run's deadline in seconds (at most the server's)",
                  "schema": { "type": "integer", "minimum": 0 } }
            ],
            "responses": {
                "200": { "description": "The event stream",
                         "content": { "text/event-stream": { "schema": {
                             "description": "One event: its name, and its data as one line of JSON",
                             "type": "object",
                             "properties": {
                                 "event": { "enum": ["queued", "progress", "steps", "done", "failed"] },
                                 "data": { "type": "string" }
                             },
                             "required": ["event", "data"]
                         } } } },
                "default": {
                    "description": "A bad request, before the stream opens",
                    "content": { "application/json": { "schema": error_ref() } }
                }
            }
        }}),
    );
    inp.finish(schemas);
    out.finish(schemas);
}

fn build() -> Value {
    let mut paths = Map::new();
    let mut schemas = Map::new();
    schemas.insert(
        "Error".into(),
        json!({
            "type": "object",
            "description": "Every error: one line, saying what and where",
            "properties": { "error": { "type": "string", "pattern": "^[^\\n\\r]*$" } },
            "required": ["error"]
        }),
    );
    let mut shared = Part::new("", Contract::Serialize);
    let games = shared.schema::<Vec<GameInfo>>();
    shared.finish(&mut schemas);
    paths.insert(
        "/api/games".into(),
        json!({ "get": {
            "summary": "The games the arcade serves, in the home page's order",
            "operationId": "games", "tags": ["server"],
            "responses": answers("The games", games)
        }}),
    );
    paths.insert(
        "/api/health".into(),
        json!({ "get": {
            "summary": "The server is up: its version and its worker pool",
            "operationId": "health", "tags": ["server"],
            "responses": answers("Up", json!({
                "type": "object",
                "properties": {
                    "ok": { "const": true },
                    "version": { "type": "string" },
                    "pool": { "type": "object" }
                },
                "required": ["ok", "version", "pool"]
            }))
        }}),
    );
    paths.insert(
        "/api/openapi.json".into(),
        json!({ "get": {
            "summary": "This document",
            "operationId": "openapi", "tags": ["server"],
            "responses": answers("The OpenAPI 3.1 document of the JSON API", json!({ "type": "object" }))
        }}),
    );
    game::<SameGame>(&mut paths, &mut schemas, "SameGame");
    game::<Tetris>(&mut paths, &mut schemas, "Tetris");
    game::<Drop7>(&mut paths, &mut schemas, "Drop7");
    game::<Twenty48>(&mut paths, &mut schemas, "Twenty48");
    game::<Snake>(&mut paths, &mut schemas, "Snake");
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "bitarcade",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The JSON API of `bitarcade serve`: every game's position, record, \
                            frames, hint, check and auto, over one contract. Seeds are strings \
                            (numbers are read too). Every error is `{\"error\": \"one line\"}`. \
                            See docs/arcade.md.",
            "license": { "name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0" }
        },
        "paths": paths,
        "components": { "schemas": schemas },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` points at a schema of the document, and every game route is there.
    #[test]
    fn every_reference_resolves_and_every_route_is_described() {
        let doc = document();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
            match v {
                Value::Object(m) => m.iter().for_each(|(k, x)| match x {
                    Value::String(s) if k == "$ref" => out.push(s),
                    _ => refs(x, out),
                }),
                Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        refs(doc, &mut all);
        assert!(all.len() > 50, "{}", all.len());
        for r in all {
            let name = r.strip_prefix(REF).unwrap_or_else(|| panic!("{r}"));
            assert!(schemas.contains_key(name), "{r} does not resolve");
        }
        for g in crate::games::GAMES {
            for verb in ["position", "record", "frames", "hint", "check"] {
                let p = &doc["paths"][format!("/api/{}/{verb}", g.name)]["post"];
                assert!(p["requestBody"].is_object(), "{} {verb}", g.name);
            }
            assert!(doc["paths"][format!("/api/{}/auto", g.name)]["get"].is_object());
        }
        for name in schemas.keys() {
            assert!(
                name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
                "{name}: not a valid component name"
            );
        }
    }
}
