fn main() -> std::process::ExitCode {
    referee::cli::main()
}
