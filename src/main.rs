fn main() {
    let domains = searchlab::registry::domains();
    let matches = match searchlab::cli::command(&domains).try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let code = e.print().map_or_else(searchlab::cli::print_failed, |()| 0);
                    std::process::exit(code);
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    std::process::exit(2);
                }
                _ => {}
            }
            // One line: clap's first line ("error: …") without its usage block.
            let text = e.to_string();
            searchlab::say!("searchlab: {}", searchlab::cli::clap_message(&text));
            std::process::exit(2);
        }
    };
    if let Err(err) = searchlab::cli::run(&domains, &matches) {
        // A reader that stops reading (`searchlab pegsol levels | head -1`) is a normal end.
        if searchlab::util::error::is_broken_pipe(&err) {
            std::process::exit(0);
        }
        searchlab::say!("searchlab: {}", searchlab::util::error::one_line(&err));
        std::process::exit(searchlab::util::error::exit_code(&err));
    }
}
