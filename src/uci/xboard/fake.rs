//! A fake XBoard engine for tests.

/// An XBoard engine in a shell script: it logs every line it hears,
/// answers `ping`, repeats a partner's message back (`tellics ptell
/// heard ...`), and at `go` sends a thinking line and a message for its
/// partner, then plays `e2e4` the first time and the drop `p@d4` after
/// (`die` as `mode`: it quits at `go` instead). Returns its command line
/// (with the `xboard:` prefix) and its log.
pub(crate) fn fake_xboard(name: &str, mode: &str) -> (String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("kibitz-fakex-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    let log = dir.join("log");
    std::fs::write(
        &script,
        r#"log="$1"; mode="$2"; gos=0
: > "$log"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  case "$line" in
    "protover 2")
      echo 'feature ping=1 setboard=1 usermove=1 myname="FakeX"'
      echo 'feature variants="normal,crazyhouse,bughouse" done=1' ;;
    ping*) echo "pong ${line#ping }" ;;
    "ptell "*) echo "tellics ptell heard ${line#ptell }" ;;
    go)
      [ "$mode" = die ] && exit 3
      gos=$((gos + 1))
      echo " 1     12      0      5  e4"
      echo "tellics ptell need n"
      if [ $gos = 1 ]; then echo "move e2e4"; else echo "move p@d4"; fi ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    let command = format!("xboard:sh {} {} {mode}", script.display(), log.display());
    (command, log)
}
