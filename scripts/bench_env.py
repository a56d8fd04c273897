"""The lines that describe a benchmark run (date, machine and load, commit, toolchain), shared by the
reports of scripts/bench.sh (docs/benchmarks.md) and scripts/bench-dist.sh (docs/benchmarks-dist.md)."""
import datetime, os, platform, subprocess


def sh(*cmd: str) -> str:
    """A command's output, stripped; "?" when it cannot run or fails."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def cpu_model() -> str:
    return next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")


def commit() -> str:
    """HEAD's short hash, marked when tracked files have uncommitted changes."""
    changed = sh("git", "status", "--porcelain", "--untracked-files=no") not in ("", "?")
    return sh("git", "rev-parse", "--short", "HEAD") + (" (with uncommitted changes)" if changed else "")


def header(load_before: str, toolchain_extra: str = "") -> list[str]:
    """The report's list of date, machine (with the load average before the run and now), commit, toolchain."""
    load_after = " ".join(open("/proc/loadavg").read().split()[:3])
    toolchain = f"{sh('rustc', '--version')}; {sh('python3', '--version')}; Node {sh('node', '--version')}"
    return [
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}; "
        f"load average before: {load_before}, after: {load_after}",
        f"- commit: {commit()}",
        f"- toolchain: {toolchain}{toolchain_extra}",
    ]
