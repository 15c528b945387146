"""The fake refuses what Discord refuses: requests that Discord's OpenAPI spec or its documentation refuse get
Discord's answer (400, 50035 "Invalid Form Body", the errors nested by field), and valid ones pass. Each test
names the rule it holds and where it is written. In-process, over raw HTTP: no bot."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord, limits
from fakediscord.models import FakeChannel, FakeMessage
from fakediscord.spec import SpecMissing, load_spec, schema_limit

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
V2 = 1 << 15
BUTTON = {"type": 2, "style": 1, "label": "Tirar", "custom_id": "roll"}

needs_spec = pytest.mark.skipif(load_spec() is None, reason="Discord's OpenAPI spec is not here")


class Client:
    """Raw REST as a bot would send it; every answer as (status, JSON or None)."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake, self.session = fake, session

    async def send(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
                   files: dict[str, bytes] | None = None) -> tuple[int, Any]:
        url = f"{self.fake.base_url}{path}"
        if files is not None:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body))
            for i, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
            request = self.session.request(method, url, data=form)
        elif raw is not None:
            request = self.session.request(method, url, data=raw, headers={"Content-Type": "application/json"})
        else:
            request = self.session.request(method, url, json=body)
        async with request as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else None)

    async def post(self, channel: FakeChannel, body: Any, **kwargs: Any) -> tuple[int, Any]:
        return await self.send("POST", f"/channels/{channel.id}/messages", body, **kwargs)

    async def callback(self, itype: int, body: Any, message: FakeMessage | None = None) -> tuple[int, Any]:
        user = next(iter(self.fake.state.users.values()))
        reply = self.fake.interactions.create(itype, user, self.channel, {"custom_id": "x", "name": "x"}, message)
        return await self.send("POST", f"/interactions/{reply.interaction_id}/{reply.token}/callback", body)

    @property
    def channel(self) -> FakeChannel:
        return self.fake.guilds[0].channel("general")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    # No rate limits: these probes post many bodies to one channel within a second, and a 429 is not their subject
    # (tests/test_fakediscord_ratelimits.py's is).
    async with FakeDiscord(rate_limits=None) as server:
        guild = server.add_guild("Mesa")
        server.add_user("ana", guild)
        yield server


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[Client]:
    async with aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as session:
        yield Client(fake, session)


@pytest.fixture
def channel(fake: FakeDiscord) -> FakeChannel:
    return fake.guilds[0].channel("general")


def leaf(answer: Any, path: str) -> list[dict[str, str]]:
    """The `_errors` at `path` ("" for the request itself) of an Invalid Form Body answer."""
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body", answer
    node = answer["errors"]
    for part in path.split(".") if path else ():
        assert part in node, (path, answer["errors"])
        node = node[part]
    return node["_errors"]


def codes(answer: Any, path: str) -> set[str]:
    return {error["code"] for error in leaf(answer, path)}


# -- the spec's schema ----------------------------------------------------------------------------------------
@needs_spec
async def test_wrong_json_types_are_refused_at_their_field(client: Client, channel: FakeChannel) -> None:
    """Schema (MessageCreateRequest): `content` is a string, `embeds` an array of objects, `tts` a boolean."""
    status, answer = await client.post(channel, {"content": 5, "embeds": {"title": "x"}, "tts": "yes"})
    assert status == 400
    assert codes(answer, "content") == {"BASE_TYPE_BAD_TYPE"}
    assert codes(answer, "embeds") == {"LIST_TYPE_CONVERT"}
    assert codes(answer, "tts") == {"BOOLEAN_TYPE_COERCE"}
    [error] = client.fake.errors[-1:]
    assert error.kind == "schema" and error.status == 400 and error.code == 50035


@needs_spec
async def test_values_outside_an_enum_are_refused(client: Client, channel: FakeChannel) -> None:
    """Schema (ButtonStyleTypes, MessageComponentTypes): a button style and a component type are Discord's."""
    status, answer = await client.post(channel, {"components": [{"type": 1, "components": [
        {**BUTTON, "style": 9}]}]})
    assert status == 400
    [error] = leaf(answer, "components.0.components.0.style")
    assert error["code"] == "BASE_TYPE_CHOICES" and "(1, 2, 3, 4, 5, 6)" in error["message"]
    status, answer = await client.post(channel, {"components": [{"type": 1, "components": [{"type": 99}]}]})
    assert status == 400 and codes(answer, "components.0.components.0.type") == {"BASE_TYPE_CHOICES"}


@needs_spec
async def test_missing_required_fields_are_refused(client: Client, channel: FakeChannel) -> None:
    """Schema: a button needs its `style`, an embed field its `name` and `value`, a choice its `value`."""
    no_style = {k: v for k, v in BUTTON.items() if k != "style"}
    status, answer = await client.post(channel, {"embeds": [{"fields": [{"name": "a"}]}],
                                                 "components": [{"type": 1, "components": [no_style]}]})
    assert status == 400
    assert leaf(answer, "components.0.components.0.style") == [
        {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]
    assert codes(answer, "embeds.0.fields.0.value") == {"BASE_TYPE_REQUIRED"}
    status, answer = await client.callback(AUTOCOMPLETE, {"type": 8, "data": {"choices": [{"name": "a"}]}})
    assert status == 400 and codes(answer, "data.choices.0.value") == {"BASE_TYPE_REQUIRED"}


@needs_spec
async def test_urls_must_be_well_formed(client: Client, channel: FakeChannel) -> None:
    """Schema (`format: uri`): a link button's `url` and an embed's `url` are URLs of a scheme Discord takes;
    `attachment://` names an upload."""
    link = {"type": 2, "style": 5, "label": "web", "url": "not a url"}
    status, answer = await client.post(channel, {"embeds": [{"title": "t", "url": "ftp://example.com/x"}],
                                                 "components": [{"type": 1, "components": [link]}]})
    assert status == 400
    assert codes(answer, "components.0.components.0.url") == {"URL_TYPE_INVALID_URL"}
    assert codes(answer, "embeds.0.url") == {"URL_TYPE_INVALID_SCHEME"}
    fine = {"embeds": [{"title": "t", "url": "https://example.com", "image": {"url": "attachment://b.png"}}],
            "attachments": [{"id": 0, "filename": "b.png"}],
            "components": [{"type": 1, "components": [{**link, "url": "https://example.com/a?b=c"}]}]}
    status, _ = await client.post(channel, fine, files={"b.png": b"\x89PNG"})
    assert status == 200


@needs_spec
async def test_oversize_fields_are_refused_with_the_specs_limit(client: Client, channel: FakeChannel) -> None:
    """Schema (RichEmbed, RichEmbedField): an embed title and a field name within the lengths the spec gives."""
    spec = load_spec()
    assert spec is not None
    title_max = schema_limit(spec, "RichEmbed", "properties", "title", "maxLength")
    status, answer = await client.post(channel, {"embeds": [{"title": "t" * (title_max + 1)}]})
    assert status == 400
    assert leaf(answer, "embeds.0.title") == [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {title_max} or fewer in length."}]
    status, _ = await client.post(channel, {"embeds": [{"title": "t" * title_max}]})
    assert status == 200


@needs_spec
async def test_allowed_mentions_shape(client: Client, channel: FakeChannel) -> None:
    """Schema (MessageAllowedMentionsRequest): `parse` holds "users", "roles", "everyone"; ids are snowflakes.
    message.mdx: `parse: ["users"]` with a list of users is refused; an empty list beside it is allowed."""
    status, answer = await client.post(channel, {"content": "hola", "allowed_mentions": {"parse": ["nobody"],
                                                                                         "users": ["abc"]}})
    assert status == 400
    assert codes(answer, "allowed_mentions.parse.0") == {"BASE_TYPE_CHOICES"}
    assert codes(answer, "allowed_mentions.users.0") == {"STRING_TYPE_REGEX"}
    status, answer = await client.post(channel, {"content": "hola", "allowed_mentions": {"parse": ["users"],
                                                                                         "users": ["123"]}})
    assert status == 400 and codes(answer, "allowed_mentions.users") == {"MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"}
    for fine in ({"parse": ["users", "roles"], "users": []}, {"parse": ["everyone"], "users": ["123"]},
                 {"parse": []}, {"users": ["123"], "replied_user": False}):
        status, answer = await client.post(channel, {"content": "hola", "allowed_mentions": fine})
        assert status == 200, (fine, answer)


@needs_spec
async def test_a_registration_past_the_specs_integers_is_refused_whole(client: Client, fake: FakeDiscord) -> None:
    """Schema (Int53Type): integer option bounds within ±(2^53 − 1); one past it refuses the whole bulk
    overwrite, and Discord keeps the commands it had."""
    spec = load_spec()
    assert spec is not None
    high = schema_limit(spec, "Int53Type", "maximum")
    option = {"type": 4, "name": "game", "description": "d", "min_value": 1, "max_value": high}
    command = {"type": 1, "name": "replay", "description": "d", "options": [option]}
    path = f"/applications/{fake.state.application_id}/commands"
    status, echoed = await client.send("PUT", path, [command])
    assert status == 200 and echoed[0]["name"] == "replay"
    status, answer = await client.send("PUT", path, [{**command, "name": "other",
                                                      "options": [{**option, "max_value": high + 1}]}])
    assert status == 400 and codes(answer, "0.options.0.max_value") == {"NUMBER_TYPE_MAX"}
    assert [c["name"] for c in fake.commands()] == ["replay"]


@needs_spec
async def test_a_callback_of_no_known_type_is_refused(client: Client) -> None:
    """Schema (the callback's union): `type` is one of Discord's callback types."""
    status, answer = await client.callback(COMMAND, {"type": 99})
    assert status == 400 and codes(answer, "type") == {"BASE_TYPE_CHOICES"}


@needs_spec
async def test_a_modal_is_checked_against_the_modal_schema(client: Client) -> None:
    """Schema (ModalInteractionCallbackRequestData): a modal has a `custom_id`, a `title` of at most 45."""
    body = {"type": 9, "data": {"title": "t" * 46, "components": [{"type": 18, "label": "Nombre", "component": {
        "type": 4, "custom_id": "n", "style": 1}}]}}
    status, answer = await client.callback(COMMAND, body)
    assert status == 400
    assert codes(answer, "data.custom_id") == {"BASE_TYPE_REQUIRED"}
    assert codes(answer, "data.title") == {"BASE_TYPE_MAX_LENGTH"}


@needs_spec
async def test_a_followup_is_checked_against_the_webhook_schema(client: Client, fake: FakeDiscord) -> None:
    """Schema (IncomingWebhookRequestPartial, a union the fake cannot tell apart by a tag): the errors are those
    of the branch the body comes closest to."""
    user = next(iter(fake.state.users.values()))
    reply = fake.interactions.create(COMMAND, user, client.channel, {"name": "x"})
    await client.send("POST", f"/interactions/{reply.interaction_id}/{reply.token}/callback", {"type": 5})
    status, answer = await client.send("POST", f"/webhooks/{fake.state.application_id}/{reply.token}",
                                       {"content": 5, "embeds": [{"url": "x"}]})
    assert status == 400
    assert codes(answer, "content") == {"BASE_TYPE_BAD_TYPE"}
    assert codes(answer, "embeds.0.url") == {"URL_TYPE_INVALID_URL"}


# -- what the documentation says and the schema does not carry -----------------------------------------------
async def test_custom_ids_are_unique_in_a_message(client: Client, channel: FakeChannel) -> None:
    """components-reference.mdx: a custom_id is unique among a message's components."""
    rows = [{"type": 1, "components": [BUTTON]}, {"type": 1, "components": [{**BUTTON, "label": "otra"}]}]
    status, answer = await client.post(channel, {"components": rows})
    assert status == 400 and "duplicated" in leaf(answer, "components")[0]["message"]


async def test_six_thousand_characters_across_a_messages_embeds(client: Client, channel: FakeChannel) -> None:
    """message.mdx (Embed Limits): title, description, field names and values, footer text and author name of
    all a message's embeds add up to at most 6,000 characters."""
    embed = {"title": "t" * 200, "description": "d" * 1400, "footer": {"text": "f" * 200},
             "author": {"name": "a" * 100}, "fields": [{"name": "n" * 50, "value": "v" * 50}]}  # 2,000 each
    status, _ = await client.post(channel, {"embeds": [embed] * 3})
    assert status == 200
    status, answer = await client.post(channel, {"embeds": [embed] * 3 + [{"description": "x"}]})
    assert status == 400 and "6000" in leaf(answer, "embeds")[0]["message"]


async def test_components_v2_messages(client: Client, channel: FakeChannel, fake: FakeDiscord) -> None:
    """components-reference.mdx: with IS_COMPONENTS_V2 (1 << 15) no content or embeds, at most 40 components in
    all, 4,000 characters across the text displays; attachments show only where a component points at them."""
    text = {"type": 10, "content": "hola"}
    status, answer = await client.post(channel, {"flags": V2, "content": "hola", "components": [text]})
    assert status == 400 and leaf(answer, "content")
    status, answer = await client.post(channel, {"flags": V2, "components": [text] * 41})
    assert status == 400 and leaf(answer, "components")
    status, answer = await client.post(channel, {"flags": V2, "components": [{"type": 10, "content": "x" * 2001},
                                                                             {"type": 10, "content": "y" * 2000}]})
    assert status == 400 and "4000" in leaf(answer, "components")[-1]["message"]
    layout = {"flags": V2, "attachments": [{"id": 0, "filename": "board.png"}, {"id": 1, "filename": "log.txt"}],
              "components": [{"type": 17, "components": [
                  text, {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                  {"type": 1, "components": [BUTTON]}]}]}
    status, message = await client.post(channel, layout, files={"board.png": b"\x89PNG", "log.txt": b"x"})
    assert status == 200, message
    posted = fake.last_message(channel)
    assert posted is not None
    assert [a.filename for a in posted.attachments] == ["board.png", "log.txt"]
    assert [a.filename for a in posted.shown_attachments()] == ["board.png"]


async def test_the_v2_flag_cannot_be_taken_off(client: Client, channel: FakeChannel) -> None:
    """components-reference.mdx: "Once a message has been sent with this flag, it can't be removed"."""
    status, message = await client.post(channel, {"flags": V2, "components": [{"type": 10, "content": "hola"}]})
    assert status == 200
    path = f"/channels/{channel.id}/messages/{message['id']}"
    status, answer = await client.send("PATCH", path, {"flags": 0, "content": "hola"})
    assert status == 400 and leaf(answer, "flags")
    status, _ = await client.send("PATCH", path, {"flags": V2, "components": [{"type": 10, "content": "adiós"}]})
    assert status == 200


@pytest.mark.parametrize(("itype", "callback", "allowed"), [
    (AUTOCOMPLETE, 4, False),  # an autocomplete gets its choices and nothing else
    (AUTOCOMPLETE, 8, True),
    (COMMAND, 8, False),
    (COMMAND, 6, False),  # 6 and 7 are for component-based interactions
    (COMMAND, 9, True),
    (COMPONENT, 7, True),
    (COMPONENT, 6, True),
    (COMPONENT, 9, True),
    (MODAL_SUBMIT, 9, False),  # no modal for a modal submission
    (MODAL_SUBMIT, 4, True),
    (COMMAND, 1, False),  # PONG answers a PING only
])
async def test_callback_types_each_interaction_allows(client: Client, channel: FakeChannel, itype: int,
                                                      callback: int, allowed: bool) -> None:
    """receiving-and-responding.mdx (Interaction Callback Type): which callback answers which interaction."""
    status, posted = await client.post(channel, {"components": [{"type": 1, "components": [BUTTON]}]})
    assert status == 200
    message = client.fake.state.messages[int(posted["id"])] if itype in (COMPONENT, MODAL_SUBMIT) else None
    data = {
        8: {"choices": [{"name": "a", "value": "a"}]},
        9: {"custom_id": "m", "title": "Nombre", "components": [{"type": 18, "label": "Nombre", "component": {
            "type": 4, "custom_id": "n", "style": 1}}]},
        4: {"content": "hola"}, 7: {"content": "hola"},
    }.get(callback)
    status, answer = await client.callback(itype, {"type": callback, **({"data": data} if data else {})}, message)
    if allowed:
        assert status in (200, 204), answer
    else:
        assert status == 400 and leaf(answer, "type"), answer


@pytest.mark.parametrize(("name", "valid"), [
    ("turista", True), ("ranking-2", True), ("año", True), ("d'or", True), ("खेल", True), ("เกม", True),
    ("Turista", False), ("two words", False), ("x" * 33, False), ("", False), ("emoji🎲", False),
])
def test_command_names(name: str, valid: bool) -> None:
    """application-commands.mdx (Application Command Naming): `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`,
    lower case where a letter has a lower-case form."""
    assert (limits.name_problem(name) is None) == valid


def test_command_rules() -> None:
    """application-commands.mdx: unique command and option names, required options first, localised names
    valid too, at most 25 choices, and 8,000 characters a command counting each field's longest localisation."""
    option = {"type": 3, "name": "edition", "description": "d"}
    command = {"type": 1, "name": "turista", "description": "d", "options": [option]}
    assert limits.check_commands([command]) == []

    def sized(localised: bool) -> dict[str, Any]:
        """25 subcommands of 3 options: 300 characters as written, 10,200 counting 100-character localisations."""
        def text(default: str) -> dict[str, Any]:
            return {"description": default, **({"description_localizations": {"en-US": default * 100}}
                                               if localised else {})}
        return {**command, "name": "e", "options": [
            {"type": 1, "name": f"s{i:02}", **text("d"), "options": [
                {**option, "name": f"p{j}", **text("e")} for j in range(3)]} for i in range(25)]}

    assert limits.check_commands([sized(False)]) == []
    big = sized(True)
    found = {p[0]: p for p in limits.check_commands([
        command, command,
        {**command, "name": "b", "options": [option, {**option, "required": True, "name": "x"}, option]},
        {**command, "name": "c", "name_localizations": {"es-ES": "Mal Nombre"}},
        {**command, "name": "d", "options": [{**option, "choices": [{"name": str(i), "value": str(i)}
                                                                    for i in range(26)]}]},
        big,
    ])}
    assert found["1.name"][2] == "APPLICATION_COMMANDS_DUPLICATE_NAME"
    assert found["2.options.1.required"][2] == "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER"
    assert found["2.options.2.name"][2] == "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"
    assert found["3.name_localizations.es-ES"][2] == "APPLICATION_COMMAND_INVALID_NAME"
    assert "4.options.0.choices" in found
    assert found["5"][2] == "APPLICATION_COMMAND_TOO_LARGE"


def test_command_descriptions_bounds_and_localised_option_names() -> None:
    """application-commands.mdx: a slash command's and an option's description is 1-100 characters, and so is
    each localisation of it (a user command has none); an INTEGER option's bounds are within ±(2^53 − 1) and a
    NUMBER's within ±2^53 ("Application Command Option Type": the spec bounds no NUMBER, and the INTEGER rule
    holds without the spec too); a localised option name differs from the other options' default names and from
    their names in that locale ("Localization")."""
    def option(name: str, **fields: Any) -> dict[str, Any]:
        return {"type": 3, "name": name, "description": "d", **fields}

    def command(name: str, *options: dict[str, Any], **fields: Any) -> dict[str, Any]:
        return {"type": 1, "name": name, "description": "d", "options": list(options), **fields}

    integer = option("n", type=4, min_value=-(2**53 - 1), max_value=2**53 - 1)
    number = option("x", type=10, min_value=-(2**53), max_value=2.0**53)
    fine = [
        command("a", integer, number, option("uno", name_localizations={"es-ES": "uno", "en-US": "one"}),
                option("dos", name_localizations={"es-ES": "segundo"})),
        {"type": 2, "name": "Ver perfil", "description": ""},
    ]
    assert limits.check_commands(fine) == []
    found = {p[0]: p[1:] for p in limits.check_commands([
        command("a", description=""),
        command("b", option("o", description="x" * 101, description_localizations={"en-US": ""})),
        command("c", {**integer, "max_value": 2**53}, {**number, "min_value": -(2**53) - 2}),
        command("d", option("uno", name_localizations={"es-ES": "dos"}), option("dos"),
                option("tres", name_localizations={"en-US": "three"}), option("cuatro", name_localizations={
                    "en-US": "three"})),
    ])}
    assert found.pop("0.description") == ("Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    assert found.pop("1.options.0.description")[1] == "BASE_TYPE_BAD_LENGTH"
    assert found.pop("1.options.0.description_localizations.en-US")[1] == "BASE_TYPE_BAD_LENGTH"
    assert found.pop("2.options.0.max_value") == ("int value should be less than or equal to 9007199254740991.",
                                                  "NUMBER_TYPE_MAX")
    assert found.pop("2.options.1.min_value")[1] == "NUMBER_TYPE_MIN"
    assert found.pop("3.options.0.name_localizations.es-ES")[1] == "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"
    assert found.pop("3.options.3.name_localizations.en-US")[1] == "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"
    assert found == {}


@needs_spec
def test_the_integer_bound_is_the_specs() -> None:
    """The documented INTEGER bound the fake holds without the spec is the spec's Int53Type."""
    spec = load_spec()
    assert spec is not None
    assert (schema_limit(spec, "Int53Type", "minimum"), schema_limit(spec, "Int53Type", "maximum")) == (
        -limits.INTEGER_MAX, limits.INTEGER_MAX)


async def test_commands_breaking_the_rules_are_refused_by_the_fake(client: Client, fake: FakeDiscord) -> None:
    """The rules above, as the fake answers a registration: 400 50035, the error at the command's field."""
    path = f"/applications/{fake.state.application_id}/commands"
    status, answer = await client.send("PUT", path, [{"type": 1, "name": "Turista", "description": "d"}])
    assert status == 400 and codes(answer, "0.name") == {"APPLICATION_COMMAND_INVALID_NAME"}


async def test_an_empty_message_is_discords_50006(client: Client, channel: FakeChannel) -> None:
    """opcodes-and-status-codes.mdx: 50006 "Cannot send an empty message"."""
    status, answer = await client.post(channel, {"content": ""})
    assert (status, answer) == (400, {"message": "Cannot send an empty message", "code": 50006})


async def test_a_token_past_15_minutes_is_discords_401_50027(client: Client, fake: FakeDiscord) -> None:
    """receiving-and-responding.mdx: tokens last 15 minutes; then the webhook token is invalid (401, 50027
    "Invalid Webhook Token"). A token Discord never gave is an unknown webhook (404, 10015)."""
    user = next(iter(fake.state.users.values()))
    reply = fake.interactions.create(COMMAND, user, client.channel, {"name": "x"})
    status, _ = await client.send("POST", f"/interactions/{reply.interaction_id}/{reply.token}/callback",
                                  {"type": 5})
    assert status == 204
    webhook = f"/webhooks/{fake.state.application_id}/{reply.token}"
    assert (await client.send("POST", webhook, {"content": "a tiempo"}))[0] == 204
    reply.created = time.monotonic() - 15 * 60 - 1
    for method, path, body in (("POST", webhook, {"content": "tarde"}),
                               ("PATCH", f"{webhook}/messages/@original", {"content": "tarde"})):
        assert await client.send(method, path, body) == (401, {"message": "Invalid Webhook Token", "code": 50027})
    status, answer = await client.send("POST", f"/webhooks/{fake.state.application_id}/no-such-token", {"content": "x"})
    assert (status, answer["code"]) == (404, 10015)


# -- never a 500 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    {"embeds": ["x"]},
    {"embeds": [{"title": "t", "footer": "pie"}]},
    {"embeds": [{"fields": ["x"]}]},
    {"components": [["x"]]},
    {"components": "x", "content": "a"},
])
async def test_a_malformed_body_is_a_400_not_a_500(fake: FakeDiscord, client: Client, channel: FakeChannel,
                                                   body: dict[str, Any]) -> None:
    """opcodes-and-status-codes.mdx: an invalid form body is 50035, whether the schema step runs or not (an
    installed fake has no spec): discord.py retries a 500, so a 500 would hide the bug as slowness."""
    status, answer = await client.post(channel, body)
    assert status == 400 and answer["code"] == 50035, answer
    fake.validation.spec = None  # as without the spec
    status, answer = await client.post(channel, body)
    assert status == 400 and answer["code"] == 50035, answer
    assert all(error.status == 400 for error in fake.errors)


async def test_json_that_does_not_parse_is_discords_50109(client: Client, channel: FakeChannel) -> None:
    """opcodes-and-status-codes.mdx: 50109 "The request body contains invalid JSON."."""
    status, answer = await client.send("POST", f"/channels/{channel.id}/messages", raw=b"{not json")
    assert (status, answer["code"]) == (400, 50109)


# -- valid requests pass ----------------------------------------------------------------------------------------
@needs_spec
async def test_valid_requests_pass(client: Client, channel: FakeChannel, fake: FakeDiscord) -> None:
    """What the bot sends (an embed table with a picture, buttons and a select; a components v2 layout; the
    callbacks of each kind) passes, and the check counts it."""
    select = {"type": 3, "custom_id": "pick", "placeholder": "Elige", "min_values": 1, "max_values": 1,
              "options": [{"label": "Uno", "value": "1", "description": "el primero", "default": True}]}
    table = {"content": "<@1>", "allowed_mentions": {"users": ["1"]}, "attachments": [{"id": 0, "filename": "b.png"}],
             "embeds": [{"title": "Mesa", "description": "…", "color": 0x2B7A3D, "image": {"url": "attachment://b.png"},
                         "fields": [{"name": "Ana", "value": "$1,500", "inline": True}],
                         "footer": {"text": "Turno 1"}, "timestamp": "2026-12-04T01:00:00+00:00"}],
             "components": [{"type": 1, "components": [BUTTON, {**BUTTON, "custom_id": "end", "style": 2,
                                                                "disabled": True, "emoji": {"name": "🎲"}}]},
                            {"type": 1, "components": [select]}]}
    status, posted = await client.post(channel, table, files={"b.png": b"\x89PNG"})
    assert status == 200, posted
    kept = [{"id": posted["attachments"][0]["id"]}]
    status, answer = await client.send("PATCH", f"/channels/{channel.id}/messages/{posted['id']}",
                                       {"embeds": table["embeds"], "attachments": kept})
    assert status == 200, answer
    message = fake.state.messages[int(posted["id"])]
    assert (await client.callback(COMPONENT, {"type": 6}, message))[0] == 204
    assert (await client.callback(COMPONENT, {"type": 7, "data": {"content": "ok"}}, message))[0] == 204
    assert (await client.callback(COMMAND, {"type": 5, "data": {"flags": 64}}))[0] == 204
    assert (await client.callback(COMMAND, {"type": 4, "data": {"content": "x", "flags": 64}}))[0] == 204
    assert fake.errors == []
    assert fake.validation.checked.bodies >= 6 and fake.validation.checked.refused == 0


# -- the spec's loading -------------------------------------------------------------------------------------------
def test_without_the_spec_the_check_is_skipped_with_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """A missing spec (an installed wheel) leaves the fake running unchecked, said in the log; with CI=true it
    is an error in the repository, so no CI test run passes unchecked."""
    missing = tmp_path / "openapi.json"
    monkeypatch.delenv("CI", raising=False)
    with caplog.at_level(logging.WARNING, logger="fakediscord.spec"):
        assert load_spec(missing) is None
    assert any("not checked" in record.getMessage() for record in caplog.records)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(SpecMissing):
        load_spec(missing)
    # An installed wheel (no repository around the package) runs unchecked even in CI: its sandbox game.
    monkeypatch.setattr("fakediscord.spec.from_checkout", lambda: False)
    assert load_spec(missing) is None


async def test_the_env_var_names_the_spec(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """TURISTA_DISCORD_SPEC points at the spec; a fake made then checks with it (or runs unchecked without)."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TURISTA_DISCORD_SPEC", str(tmp_path / "none.json"))
    async with FakeDiscord() as fake:
        assert fake.validation.spec is None
        guild = fake.add_guild("Mesa")
        async with aiohttp.ClientSession() as session, session.post(
                f"{fake.base_url}/channels/{guild.channel('general').id}/messages", json={"content": "hola"}) as r:
            assert r.status == 200


def test_error_body_is_discords_tree() -> None:
    """api-reference.mdx (Error Messages): errors nested by field path, `_errors` lists of {code, message} at the
    leaves, and a request-level error at the root."""
    body = limits.error_body([("embeds.0.title", "Must be 256 or fewer in length."),
                              ("embeds.0.title", "again", "X"), ("", "Command exceeds maximum size (8000)",
                                                                 "APPLICATION_COMMAND_TOO_LARGE")])
    assert body == {"code": 50035, "message": "Invalid Form Body", "errors": {
        "embeds": {"0": {"title": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."},
            {"code": "X", "message": "again"}]}}},
        "_errors": [{"code": "APPLICATION_COMMAND_TOO_LARGE", "message": "Command exceeds maximum size (8000)"}]}}
