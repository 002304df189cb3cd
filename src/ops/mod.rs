//! The operations on a glossary that both front-ends offer: the CLI (`cli`) and the MCP
//! server (`mcp`) parse their arguments their own way and call the same function here, so a
//! command and its tool cannot drift apart.
//!
//! Each operation works through the layers below (`store`, `index`, `matching`, `platform`,
//! `project`); none of them imports a front-end.

pub mod actions;
pub mod closest;
pub mod doctor;
pub mod duplicates;
pub mod exchange;
pub mod removal;
pub mod search;
pub mod stats;
