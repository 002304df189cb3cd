//! The `tinylingo` binary: everything is in the library; see `tinylingo --help`.
fn main() -> std::process::ExitCode {
    tinylingo::cli::main()
}
