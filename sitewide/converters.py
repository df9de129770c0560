"""Path converters that match only what a view can look up, so anything
else (a NUL byte, which PostgreSQL refuses in a query) answers 404 before
any view runs."""


class Matching:
    """A str converter for `regex` alone; subclasses set the pattern."""

    regex: str

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
