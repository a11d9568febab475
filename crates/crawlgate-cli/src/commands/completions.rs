//! `crawlgate completions`: shell completion scripts.

use std::io::Write as _;

use clap_complete::Shell;

use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate completions bash > ~/.local/share/bash-completion/completions/crawlgate
  crawlgate completions zsh > ~/.zfunc/_crawlgate      # with fpath+=~/.zfunc in .zshrc
  crawlgate completions fish > ~/.config/fish/completions/crawlgate.fish
  crawlgate completions elvish >> ~/.config/elvish/rc.elv
  crawlgate completions powershell >> $PROFILE";

/// Arguments of `crawlgate completions`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Runs `crawlgate completions` for `command` (the CLI's own).
pub fn run(args: Args, mut command: clap::Command) -> anyhow::Result<Status> {
    let name = command.get_name().to_owned();
    // Generated into memory, then written: a closed pipe is an error to
    // return (and end quietly on), not a panic inside the generator.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Status::Success)
}
