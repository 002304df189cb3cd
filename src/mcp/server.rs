//! The MCP glue: an rmcp [`ServerHandler`] that lists [`TOOLS`] and runs a call through
//! [`tools::call`] and [`hybrid::answer`].
//!
//! Every refusal is a tool result with `isError: true` whose text is the CLI's message and
//! hint, so the model sees what went wrong and can correct its call; a protocol error
//! (JSON-RPC `error`) would be shown to it, by most clients, as a broken server. Bad arguments
//! therefore never reach rmcp's own parameter checks: they are parsed here, as data.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::hybrid;
use super::tools::{self, TOOLS};
use crate::error::Error;
use crate::store::Store;

/// What the server tells the client about itself at `initialize`; clients pass it on to the
/// model as the server's instructions.
const INSTRUCTIONS: &str = "tinylingo is the user's shared glossary of project terms and \
behaviour rules, injected before every prompt that mentions a recorded term, in every \
assistant. Call `record` whenever the user corrects your understanding or your behaviour, \
explains what a word means, or asks you to remember something, and when it took you several \
searches to find what a term refers to; make the explanation dense (project, paths, \
identifiers, the exact rule); `search` first to see whether something close is recorded. \
`list`, `search`, `match`, `stats`, `check` and `thread_show` read; `remove` deletes (a search in two \
steps: preview and code, then confirm once the user agrees). `suggest` finds proposed entries \
in the user's past sessions and `inbox` accepts or rejects them: only as the user decides.";

/// The server: the store every call works on.
pub struct Server {
    store: Store,
}

impl Server {
    pub fn new(store: Store) -> Server {
        Server { store }
    }
}

/// The tool error for `e`: the CLI's `tinylingo: …` line and its hint.
pub fn error_text(e: &Error) -> String {
    match e.hint() {
        Some(hint) => format!("tinylingo: {e}\n  hint: {hint}"),
        None => format!("tinylingo: {e}"),
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tinylingo", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let list = TOOLS
            .iter()
            .map(|t| {
                let schema = match (t.schema)() {
                    serde_json::Value::Object(map) => map,
                    _ => unreachable!("every schema is an object"),
                };
                let annotations =
                    ToolAnnotations::new().read_only(t.read_only).destructive(t.name == "remove");
                rmcp::model::Tool::new_with_raw(
                    t.name,
                    Some(Cow::Borrowed(t.description)),
                    Arc::new(schema),
                )
                .with_annotations(annotations)
            })
            .collect();
        Ok(ListToolsResult::with_all_items(list))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        let args = request.arguments.unwrap_or_default();
        // A panic in a tool is caught like any error: the server must outlive a bad call.
        let run = std::panic::AssertUnwindSafe(|| {
            let payload = tools::call(&self.store, name, args)?;
            hybrid::answer(&self.store, name, &payload)
        });
        let result = match std::panic::catch_unwind(run) {
            Ok(Ok(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Ok(Err(e)) => CallToolResult::error(vec![ContentBlock::text(error_text(&e))]),
            Err(_) => CallToolResult::error(vec![ContentBlock::text(format!(
                "tinylingo: {name} failed unexpectedly (a bug: please report it)"
            ))]),
        };
        Ok(result.into())
    }
}
