fn main() -> std::process::ExitCode {
    mcpward::cli::main()
}
