"""The engine's one error type, carrying the machine code of SPEC §7."""


class FarkleError(ValueError):
    """A refused input or action: ``code`` for machines, ``detail`` for people."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
