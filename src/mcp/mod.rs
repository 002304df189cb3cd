//! `tinylingo mcp`: the Model Context Protocol server, on stdio.
//!
//! An MCP tool is typed and discoverable, needs no shell permission, and works where an
//! assistant's sandbox blocks the shell from writing outside the workspace (Codex's
//! workspace-write): the server is started by the assistant itself, outside the sandbox.
//!
//! * [`tools`] defines the tools and runs them through the same library calls as the CLI.
//! * [`hybrid`] decides how a result travels: inline up to 8 KB, else as a file reference.
//! * [`server`] is the glue to the official Rust SDK (`rmcp`): `tools/list`, `tools/call`,
//!   and every refusal as a tool error.
//! * [`lines`] stands between stdio and rmcp: a line that is not JSON gets JSON-RPC's parse
//!   error, which rmcp does not send.
//!
//! The server is a separate front-end, like the CLI, and the hook never reaches this module:
//! the async runtime (tokio, current-thread) is built only here, so the hook's start-up and
//! memory do not change.

pub mod hybrid;
pub mod lines;
pub mod server;
pub mod tools;

use rmcp::ServiceExt;

use crate::error::{Error, Result};
use crate::store::Store;

/// Serves MCP on stdin/stdout until the client closes the connection.
pub fn serve(store: Store) -> Result<()> {
    // A client that goes away mid-call must not kill the server with SIGPIPE while it writes
    // the answer: the write fails, and the server ends on the closed connection instead.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to ignore, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    hybrid::prune(&store);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("the async runtime", "start", e))?;
    runtime.block_on(async {
        let (input, output, written) = lines::stdio();
        let served = server::Server::new(store).serve((input, output)).await;
        let done = match served {
            // The reason the service ended (closed, cancelled) is not an error of ours.
            Ok(running) => running.waiting().await.map(drop).or(Ok(())),
            // A client that left before initializing closed the connection, as at the end.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
            Err(e) => Err(Error::bad_input(format!("MCP initialisation failed: {e}"), None)),
        };
        // Every answer out before the process ends.
        let _ = written.await;
        done
    })
}
