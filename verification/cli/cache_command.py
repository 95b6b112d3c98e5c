"""``cache``: the shared response cache's stats, clear and prune."""

from __future__ import annotations

from pathlib import Path

from verification.cli.command_base import CommandsBase

__all__ = ["CacheCommand"]


class CacheCommand(CommandsBase):
    """``cache``."""

    def cache(
        self,
        action: str,
        *,
        folder: Path | None = None,
        older_than: int | None = None,
        output: Path | None = None,
    ) -> int:
        from verification.errors import ConfigurationError
        from verification.llm.cache.responses import CACHE_FILE, ResponseCache, shared_cache

        if output is not None:
            shared = shared_cache(self.settings.cache_dir, self.settings.cache_max_mb)
            raise ConfigurationError(
                f"cache takes no --output: every run shares one response cache whatever its "
                f"--output (results folder), {shared.path}; --cache-dir {output} acts on "
                f"the {CACHE_FILE} in {output} instead (a results folder where a version "
                "before the shared cache kept one)"
            )
        if (action == "prune") != (older_than is not None):
            raise ConfigurationError(
                "cache prune needs --older-than DAYS"
                if action == "prune"
                else f"--older-than goes with cache prune, not cache {action}"
            )
        shared = cache = shared_cache(self.settings.cache_dir, self.settings.cache_max_mb)
        if folder is not None and (folder / CACHE_FILE).absolute() != shared.path.absolute():
            cache = ResponseCache(folder / CACHE_FILE, max_bytes=shared.max_bytes)
            if not cache.path.exists() and not cache.path.is_symlink():
                print(f"{folder} holds no response cache; the shared one is {shared.path}")
                return 0
        if action == "clear":
            print(f"removed {cache.clear()} cached answers from {cache.path}")
        elif action == "prune":
            assert older_than is not None
            pruned, trimmed = cache.prune(older_than), cache.trim()
            print(
                f"removed {pruned} answer(s) unused for {older_than} day(s)"
                + (f" and {trimmed} beyond the size cap" if trimmed else "")
                + f" from {cache.path}"
            )
        else:
            print(cache.stats().render())
        return 0
