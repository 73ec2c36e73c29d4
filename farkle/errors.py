"""The engine's one error type, carrying a machine code of the JSON API (README)."""


class FarkleError(ValueError):
    """A refused input or action: ``code`` for machines, ``detail`` for people."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
