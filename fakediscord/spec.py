"""Discord's own description of its HTTP API (its OpenAPI 3.1 spec), used to refuse the request bodies real
Discord refuses: every JSON body, and the ``payload_json`` of a multipart one, is validated against the
``requestBody`` schema of its route and method (JSON Schema Draft 2020-12, ``$ref``s resolved with
``referencing``), and a refused one gets Discord's 400 "Invalid Form Body" with the errors nested by field.

The spec is read from ``TURISTA_DISCORD_SPEC``, else from ``shared/reference/discord/openapi.json`` beside the
repository. An installed wheel has no spec (nor, perhaps, jsonschema): then the fake runs without this step and
says so once in its log. With ``CI=true`` a missing spec is an error where the package runs from the repository,
so a test run never passes unchecked; the wheel CI installs for its sandbox game still runs without it.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
import os
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .limits import Problems

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

log = logging.getLogger(__name__)

SPEC_ENV = "TURISTA_DISCORD_SPEC"
API = "/api/v10"
_SPEC_URI = "urn:discord-openapi"
_METHODS = ("get", "put", "post", "patch", "delete")
# The URL schemes Discord takes: web links, attachment references (embed images, media items) and discord://
# deep links (link buttons).
URL_SCHEMES = ("http", "https", "attachment", "discord")
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)


class SpecMissing(RuntimeError):
    """With ``CI=true`` the spec (or jsonschema to read it) must be there: a run that checks nothing fails."""


def default_spec_path() -> Path:
    """``shared/reference/discord/openapi.json`` beside the repository this package sits in."""
    return Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "discord" / "openapi.json"


def from_checkout() -> bool:
    """Whether this package runs from the repository (tests, benchmarks) rather than from an installed wheel
    (`turista sandbox` on an admin's machine, or the wheel CI installs), which has no spec beside it."""
    return (Path(__file__).resolve().parent.parent / "pyproject.toml").is_file()


def spec_path() -> Path:
    configured = os.environ.get(SPEC_ENV)
    return Path(configured) if configured else default_spec_path()


def _discriminator(schema: dict[str, Any], document: dict[str, Any]) -> tuple[Any, ...] | None:
    """The values of ``type`` a branch of a union accepts, when it pins them (``enum`` or ``const``)."""
    ref = schema.get("$ref", "")
    if not ref.startswith("#/"):
        return None
    target: Any = document
    for part in ref[2:].split("/"):
        target = target[part.replace("~1", "/").replace("~0", "~")]
    kind = (target.get("properties") or {}).get("type") or {}
    if "const" in kind:
        return (kind["const"],)
    if "enum" in kind:
        return tuple(kind["enum"])
    return None


def _tagged(node: dict[str, Any], key: str, document: dict[str, Any]) -> dict[str, Any] | None:
    """A union rewritten so that a value is checked against the one branch meant for it: ``null`` or one schema
    (``x-nullable``), or object schemas told apart by their ``type`` (Discord's components and callbacks,
    ``x-tagged``). jsonschema would otherwise check every branch of every union, each a descent with its own
    errors (a few milliseconds a message), and its errors would not point into the branch that applies, as
    Discord's do."""
    branches = node[key]
    rest = {k: v for k, v in node.items() if k not in (key, "x-discord-union")}
    if branches and all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"}
                        for b in branches):
        return {**rest, "enum": [branch["const"] for branch in branches]}  # Discord's enums: one const each
    nullable = any(branch == {"type": "null"} for branch in branches)
    others = [branch for branch in branches if branch != {"type": "null"}]
    if nullable and len(others) == 1:
        return {**rest, "x-nullable": others[0]}
    tags = [_discriminator(branch, document) for branch in others]
    if not others or any(tag is None for tag in tags):
        return None
    every = [value for tag in tags for value in tag or ()]
    if len(every) != len(set(every)):
        return None
    tagged = {"type": ["object", "null"] if nullable else "object",
              "properties": {"type": {"enum": every}}, "required": ["type"],
              "x-tagged": [[list(tag or ()), branch] for branch, tag in zip(others, tags, strict=True)]}
    return {**rest, "allOf": [tagged, *rest.get("allOf", [])]}


def _rewrite_unions(node: Any, document: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_rewrite_unions(item, document) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _rewrite_unions(value, document) for key, value in node.items()}
    for key in ("oneOf", "anyOf"):
        if isinstance(node.get(key), list):
            node = _tagged(node, key, document) or node
    return node


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(value) for value in node.values())
    return isinstance(node, list) and any(_has_ref(item) for item in node)


def _inline_leaves(document: dict[str, Any]) -> dict[str, Any]:
    """Each ``$ref`` to a component schema that holds no ``$ref`` itself (an enum, a snowflake, an embed's
    footer...) replaced by that schema: a reference costs a lookup at every use, and most are of these."""
    schemas = document["components"]["schemas"]
    leaves = {f"#/components/schemas/{name}": schema for name, schema in schemas.items() if not _has_ref(schema)}

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        if set(node) == {"$ref"} and node["$ref"] in leaves:
            return leaves[node["$ref"]]
        return {key: inline(value) for key, value in node.items()}

    for _ in range(4):  # a schema whose references were all leaves is a leaf in the next round
        document = inline(document)
        schemas = document["components"]["schemas"]
        leaves = {f"#/components/schemas/{name}": schema for name, schema in schemas.items() if not _has_ref(schema)}
    return document


_COMPONENT_REF = "#/components/schemas/"
# Keywords that may refuse a null where `type` allows it: a schema without them takes null once "null" is a type.
_NULL_SENSITIVE = frozenset({"enum", "const", "not", "anyOf", "oneOf", "allOf", "$ref", "if", "then", "else",
                             "x-tagged", "x-nullable"})


def _merge_nullables(node: Any) -> Any:
    """``x-nullable: X`` as X with "null" among its types, where X says nothing else of null: one descent less
    for each of the many optional fields (an embed has a dozen)."""
    if isinstance(node, list):
        return [_merge_nullables(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _merge_nullables(value) for key, value in node.items()}
    inner = node.get("x-nullable")
    if isinstance(inner, dict) and "type" in inner and not _NULL_SENSITIVE & set(inner):
        types = [inner["type"]] if isinstance(inner["type"], str) else list(inner["type"])
        rest = {key: value for key, value in node.items() if key != "x-nullable"}
        if not set(rest) & set(inner):
            node = {**rest, **inner, "type": types if "null" in types else [*types, "null"]}
    return node


def _absolute_refs(node: Any) -> Any:
    """``#/components/schemas/X`` as ``urn:discord-openapi:X``, the resource each component schema is."""
    if isinstance(node, list):
        return [_absolute_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_COMPONENT_REF):  # (headers and responses are not bodies)
        node = {**node, "$ref": f"{_SPEC_URI}:{ref.removeprefix(_COMPONENT_REF)}"}
    return {key: _absolute_refs(value) for key, value in node.items()}


def _nullable(validator: Any, schema: Any, instance: Any, _: Any) -> Iterator[Any]:
    if instance is not None:
        yield from validator.descend(instance, schema)


# Subtrees (schema, value) found valid, by the value's JSON: a table's message is edited many times with mostly
# the same buttons and selects, and a whole body is often sent again (a deferral, a retry). Validity depends on
# nothing else, so each is checked once; the set is emptied when it grows past _VALID_MAX.
_valid: set[tuple[int, str]] = set()
_VALID_MAX = 100_000


def _by_tag(validator: Any, branches: Any, instance: Any, _: Any) -> Iterator[Any]:
    if not isinstance(instance, dict):
        return
    tag = instance.get("type")
    for values, schema in branches:
        if tag in values and not isinstance(tag, bool):
            try:
                key = (id(schema), json.dumps(instance, sort_keys=True))
            except (TypeError, ValueError):
                key = None
            if key is not None and key in _valid:
                return
            errors = list(validator.descend(instance, schema))
            if not errors and key is not None:
                if len(_valid) >= _VALID_MAX:
                    _valid.clear()
                _valid.add(key)
            yield from errors
            return


def _format_checker() -> Any:
    """The spec's formats, checked the way Discord does: URLs (``uri``), timestamps, integer widths."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())

    @checker.checks("uri")
    def _uri(value: object) -> bool:
        if not isinstance(value, str):
            return True
        parts = urlsplit(value)
        return parts.scheme in URL_SCHEMES and bool(parts.netloc)

    @checker.checks("date-time", raises=ValueError)
    def _date_time(value: object) -> bool:
        return not isinstance(value, str) or datetime.fromisoformat(value) is not None

    def width(bounds: tuple[int, int]) -> Any:
        return lambda value: not isinstance(value, int) or bounds[0] <= value <= bounds[1]

    checker.checks("int32")(width(_INT32))
    checker.checks("int64")(width(_INT64))
    return checker


def _discord_error(error: ValidationError) -> tuple[str, str]:
    """Discord's (code, message) for a broken keyword, as its error bodies word them."""
    keyword, limit, value = error.validator, error.validator_value, error.instance
    if keyword in ("maxLength", "maxItems"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
    if keyword in ("minLength", "minItems"):
        return "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."
    if keyword == "maxProperties":
        return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
    if keyword in ("enum", "const"):
        choices = tuple(limit) if keyword == "enum" else (limit,)
        return "BASE_TYPE_CHOICES", f"Value must be one of {choices}."
    if keyword == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    if keyword == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    if keyword == "pattern":
        return "STRING_TYPE_REGEX", "String value did not match validation regex."
    if keyword == "uniqueItems":
        return "BASE_TYPE_DUPLICATES", "Must not contain duplicates."
    if keyword == "format" and limit == "uri":
        scheme = urlsplit(value).scheme if isinstance(value, str) else ""
        if scheme and scheme not in URL_SCHEMES:
            return ("URL_TYPE_INVALID_SCHEME",
                    f'Scheme "{scheme}" is not supported. Scheme must be one of {URL_SCHEMES}.')
        return "URL_TYPE_INVALID_URL", "Not a well formed URL."
    if keyword == "format":
        return "BASE_TYPE_BAD_FORMAT", f"Value is not a valid {limit}."
    if keyword == "type":
        kinds = [limit] if isinstance(limit, str) else [k for k in limit if k != "null"]
        wanted = kinds[0] if kinds else "null"
        if wanted == "object":
            return "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"
        if wanted == "array":
            return "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
        if wanted in ("integer", "number"):
            return "NUMBER_TYPE_COERCE", f'Value "{value}" is not {"int" if wanted == "integer" else "a number"}.'
        if wanted == "boolean":
            return "BOOLEAN_TYPE_COERCE", f'Value "{value}" is not bool.'
        return "BASE_TYPE_BAD_TYPE", f"Must be a {wanted}."
    return "BASE_TYPE_INVALID", error.message


def _path(parts: Iterator[Any] | Any) -> str:
    return ".".join(str(part) for part in parts)


def _branch_cost(errors: list[ValidationError]) -> tuple[int, int, int, int]:
    """How badly a branch of a union (one the rewrite above could not tell apart) misses: a wrong ``type`` tag,
    a wrong JSON type, other errors on the value itself (a required field missing), then errors in all. The
    branch that misses least is the one meant."""
    wrong_tag = any(list(e.relative_path) == ["type"] and e.validator in ("enum", "const") for e in errors)
    wrong_type = sum(1 for e in errors if not e.relative_path and e.validator == "type")
    shallow = sum(1 for e in errors if not e.relative_path)
    return (int(wrong_tag), wrong_type, shallow, len(errors))


def _leaves(error: ValidationError) -> Iterator[tuple[str, str, str]]:
    """(path, message, code) of each field a validation error comes down to."""
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        for name in error.validator_value:
            if name not in present:
                yield _path([*error.absolute_path, name]), "This field is required", "BASE_TYPE_REQUIRED"
        return
    if error.validator in ("anyOf", "oneOf", "allOf", "if", "then") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else 0, []).append(sub)
        chosen = (list(branches.values()) if error.validator == "allOf"
                  else [min(branches.values(), key=_branch_cost)])
        for group in chosen:
            for sub in group:
                yield from _leaves(sub)
        return
    code, message = _discord_error(error)
    yield _path(error.absolute_path), message, code


class Spec:
    """The request-body schemas of Discord's API v10, by method and path template, compiled once each."""

    def __init__(self, document: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator, validators
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        self.document = document
        prepared = copy.deepcopy(document)
        # Discord reads a snowflake from a JSON number as well as from a string: discord.py sends the index of an
        # upload as a number in `attachments[].id`, and real Discord takes it. The spec types them as strings only.
        prepared["components"]["schemas"]["SnowflakeType"] = {
            **prepared["components"]["schemas"]["SnowflakeType"], "type": ["string", "integer"], "minimum": 0}
        prepared = _absolute_refs(_merge_nullables(_inline_leaves(_rewrite_unions(prepared, document))))
        # Each component schema a resource of its own: a `$ref` is then one look-up by name, not a walk down a
        # JSON pointer through the whole document (half the cost of a small body).
        self._registry = Registry().with_resources(
            (f"{_SPEC_URI}:{name}", Resource.from_contents(schema, default_specification=DRAFT202012))
            for name, schema in prepared["components"]["schemas"].items())
        self._validator_class = validators.extend(
            Draft202012Validator, {"x-nullable": _nullable, "x-tagged": _by_tag})
        self._formats = _format_checker()
        self._prepared = prepared
        # (method, number of segments) -> [(segments, template)], literal segments first so that
        # /messages/@original wins over /messages/{message_id}.
        self._templates: dict[tuple[str, int], list[tuple[tuple[str, ...], str]]] = {}
        for template, operations in document["paths"].items():
            for method in operations:
                if method in _METHODS:
                    segments = tuple(template.strip("/").split("/"))
                    self._templates.setdefault((method.upper(), len(segments)), []).append((segments, template))
        for candidates in self._templates.values():
            candidates.sort(key=lambda c: sum(s.startswith("{") for s in c[0]))
        self._validators: dict[tuple[str, str], Validator | None] = {}

    def route(self, method: str, path: str) -> str | None:
        """The spec's path template of a request, e.g. ``/channels/{channel_id}/messages``."""
        segments = path.removeprefix(API).strip("/").split("/")
        for candidate, template in self._templates.get((method.upper(), len(segments)), ()):
            if all(c == s or c.startswith("{") for c, s in zip(candidate, segments, strict=True)):
                return template
        return None

    def body_schema(self, method: str, template: str) -> dict[str, Any] | None:
        """The JSON schema of the body of ``method template`` as the spec writes it (``$ref``s unresolved)."""
        operation = self.document["paths"].get(template, {}).get(method.lower(), {})
        content = (operation.get("requestBody") or {}).get("content") or {}
        body = content.get("application/json")
        return body.get("schema") if body else None

    def validator(self, method: str, template: str) -> Validator | None:
        key = (method.upper(), template)
        if key not in self._validators:
            self._validators[key] = None
            if self.body_schema(method, template) is not None:
                operation = self._prepared["paths"][template][method.lower()]
                schema = operation["requestBody"]["content"]["application/json"]["schema"]
                self._validators[key] = self._validator_class(
                    schema, registry=self._registry, format_checker=self._formats)
        return self._validators[key]

    def schema_validator(self, name: str) -> Validator:
        """A validator for one of the spec's component schemas, e.g. ``ApplicationCommandUpdateRequest``."""
        return self._validator_class(
            {"$ref": f"{_SPEC_URI}:{name}"}, registry=self._registry, format_checker=self._formats)

    def schema(self, name: str) -> dict[str, Any]:
        """A component schema as the spec writes it."""
        return self.document["components"]["schemas"][name]

    def problems(self, method: str, path: str, body: Any) -> Problems:
        """Where a request body breaks the spec's schema for its route: ``(path, message, code)`` each."""
        template = self.route(method, path)
        validator = self.validator(method, template) if template else None
        if validator is None or validator.is_valid(body):
            return []
        return problems_of(validator, body)


def problems_of(validator: Validator, instance: Any) -> Problems:
    """The fields where ``instance`` breaks ``validator``'s schema, as Discord's error tree names them."""
    found: Problems = []
    for error in validator.iter_errors(instance):
        for path, message, code in _leaves(error):
            if (path, message, code) not in found:
                found.append((path, message, code))
    return found


@functools.cache
def _load(path: str) -> Spec:
    return Spec(json.loads(Path(path).read_text(encoding="utf-8")))


def load_spec(path: Path | None = None) -> Spec | None:
    """The spec at ``path`` (default: :func:`spec_path`), read and compiled once a process; ``None`` when it or
    jsonschema is missing, said once in the log, and :class:`SpecMissing` instead when ``CI=true`` and the
    package runs from the repository (or the spec was named): an installed wheel runs unchecked even in CI."""
    path = path or spec_path()
    missing = None
    if not path.is_file():
        missing = f"no Discord OpenAPI spec at {path} (set {SPEC_ENV})"
    else:
        try:
            import jsonschema  # noqa: F401
            import referencing  # noqa: F401
        except ImportError:
            missing = "jsonschema and referencing are not installed (pip install -e '.[dev]')"
    if missing is None:
        return _load(str(path.resolve()))
    if os.environ.get("CI") == "true" and (from_checkout() or SPEC_ENV in os.environ):
        raise SpecMissing(f"fakediscord: {missing}; request bodies cannot be checked")
    _say_skipped(missing)
    return None


@functools.cache
def _say_skipped(reason: str) -> None:
    # A developer's checkout should have the spec: a warning. An installed wheel never has it: a note.
    level = logging.WARNING if from_checkout() else logging.INFO
    log.log(level, "fakediscord: %s; request bodies are not checked against Discord's schema", reason)


_NUMBER = re.compile(r"^\d+$")


def schema_limit(spec: Spec, name: str, *keys: str) -> Any:
    """A number the spec states, e.g. ``schema_limit(spec, "Int53Type", "maximum")``: so that code and tests
    take Discord's limits from Discord's description rather than from copies typed by hand. ``keys`` walk into
    the schema (``properties``, a property name, ...); a ``$ref`` on the way is followed."""
    node: Any = spec.schema(name)
    for key in keys:
        while isinstance(node, dict) and "$ref" in node and key not in node:
            node = spec.schema(node["$ref"].rsplit("/", 1)[1])
        node = node[int(key)] if isinstance(node, list) and _NUMBER.match(key) else node[key]
    return node


__all__ = ["SPEC_ENV", "Spec", "SpecMissing", "default_spec_path", "load_spec", "problems_of", "schema_limit",
           "spec_path"]
