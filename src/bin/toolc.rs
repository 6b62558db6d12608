//! The `toolc` command line; the commands are `toolc::cli`, in the library.

fn main() -> std::process::ExitCode {
    toolc::cli::main()
}
