"""Settings of the bot process, read from the environment or a `.env` file (see `.env.example`)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from dotenv import load_dotenv


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name} must be a number, got {raw!r}") from None


def _int_or_none(name: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise SystemExit(f"{name} must be a numeric Discord id, got {raw!r}")
    return int(raw)


def _url(name: str) -> str | None:
    raw = os.environ.get(name, "").strip().rstrip("/")
    if not raw:
        return None
    if not raw.startswith(("http://", "https://")):
        raise SystemExit(f"{name} must be an http:// or https:// URL, such as http://127.0.0.1:8080/api/v10: {raw!r}")
    return raw


@dataclass(frozen=True)
class Config:
    token: str
    db: str  # a SQLite file, or a postgresql:// URL
    dev_guild: int | None  # sync commands to this guild only (instant) instead of globally
    pace: float  # seconds a computer seat "thinks" before each move, so people can follow
    auction_quiet: float  # seconds without a bid after which an auction closes
    time_scale: float  # multiplies every timer; only tests shrink it
    seed: int | None  # a fixed seed for every new game; only tests set it
    log_level: str
    status_minutes: float = 10.0  # how often the running bot logs the status line; 0: never
    render_workers: int | None = None  # processes drawing pictures; None: one per core, 0: a thread of the bot
    cache: str | None = None  # a folder for what the bot can learn again but keeps to start faster (`default_cache`)
    # Gateway shards: with neither, one process runs every shard Discord recommends. `shards` is the part
    # this process runs (None: all of them); it needs `shard_count`.
    shard_count: int | None = None
    shards: tuple[int, ...] | None = None
    # Where discord.py sends its REST requests (`https://discord.com/api/v10` when unset): an HTTP rate-limit proxy
    # that several shard processes share (docs/scaling.md), which forwards them to Discord.
    rest_url: str | None = None
    # Talking to a fake Discord on this machine (the tests): no pause between two shards' IDENTIFY, and a short wait
    # for the guilds at connection.
    local: bool = False

    @property
    def minute(self) -> float:
        """How many real seconds one minute of a game's clock lasts."""
        return 60.0 * self.time_scale


def default_cache() -> str:
    """Where the bot keeps what it can learn again: systemd's cache directory for the service (`CacheDirectory=`
    sets $CACHE_DIRECTORY), else the user's cache folder ($XDG_CACHE_HOME, else ~/.cache)."""
    systemd = os.environ.get("CACHE_DIRECTORY", "").split(":")[0].strip()
    if systemd:
        return systemd
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "turista")


def load_env_file(env_file: str | os.PathLike[str] | None = None) -> None:
    """Read `.env` (in the working directory, unless named) into the environment; values already
    there win. The maintenance commands call it too, so that they find the bot's database."""
    load_dotenv(env_file or Path.cwd() / ".env", override=False)


def has_token(config: Config, command: str) -> bool:
    """Whether `config` holds the bot's token; if not, a line on stderr says that `turista <command>` needs it
    (the tools that reach Discord with it besides `turista run`, which explains the token at length)."""
    if config.token:
        return True
    print(f"`turista {command}` needs the bot's token in DISCORD_TOKEN (the environment or .env), as `turista run` "
          "does", file=sys.stderr)
    return False


def load_config(env_file: str | os.PathLike[str] | None = None) -> Config:
    """The configuration; values already in the environment win over the `.env` file."""
    load_env_file(env_file)
    fast = os.environ.get("TURISTA_TEST_FAST", "").strip() not in ("", "0", "false", "no")
    seed = _int_or_none("TURISTA_SEED")
    config = Config(
        token=os.environ.get("DISCORD_TOKEN", "").strip(),
        db=os.environ.get("TURISTA_DB", "").strip() or "turista.db",
        dev_guild=_int_or_none("TURISTA_DEV_GUILD"),
        pace=0.0 if fast else _float("TURISTA_PACE", 1.5),
        auction_quiet=_float("TURISTA_AUCTION_QUIET", 30.0),
        time_scale=_float("TURISTA_TIME_SCALE", 1.0),
        seed=seed,
        log_level=os.environ.get("TURISTA_LOG_LEVEL", "INFO").strip().upper() or "INFO",
        status_minutes=_float("TURISTA_STATUS_MINUTES", 10.0),
        render_workers=_int_or_none("TURISTA_RENDER_WORKERS"),
        cache=os.environ.get("TURISTA_CACHE", "").strip() or default_cache(),
        rest_url=_url("TURISTA_DISCORD_API"),
        local=fast,
    )
    return with_shards(config, os.environ.get("TURISTA_SHARD_COUNT", ""), os.environ.get("TURISTA_SHARDS", ""))


def parse_shards(spec: str, count: int) -> tuple[int, ...]:
    """`0-3`, `5`, `0,2,4-6` -> the shard ids, each below `count`."""
    shards: set[int] = set()
    for part in spec.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise SystemExit(f"TURISTA_SHARDS must look like 0-3 or 0,2,5, got {spec!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last or last >= count:
            raise SystemExit(f"TURISTA_SHARDS {spec!r} names shards outside 0-{count - 1} (of {count})")
        shards.update(range(first, last + 1))
    return tuple(sorted(shards))


def with_shards(config: Config, count: str | int | None, shards: str | None) -> Config:
    """`config` running `shards` (a spec such as `0-3`) of `count` shards; empty values change nothing."""
    raw = str(count).strip() if count is not None else ""
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise SystemExit(f"TURISTA_SHARD_COUNT must be a whole number of shards, 1 or more, got {raw!r}")
        config = replace(config, shard_count=int(raw), shards=None)
    if shards and shards.strip():
        if config.shard_count is None:
            raise SystemExit("TURISTA_SHARDS needs TURISTA_SHARD_COUNT: which shards, out of how many?")
        config = replace(config, shards=parse_shards(shards, config.shard_count))
    return config
