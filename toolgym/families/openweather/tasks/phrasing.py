"""How OpenWeather goals are phrased: the location, the options and the sentence templates.

A :class:`Writer` renders the parts of a goal from a request spec (its location, ``units``,
``mode``, ``lang`` and ``limit``); :data:`TEMPLATES` are the sentences, one kind per endpoint type
(``current``, ``forecast``, ``air_now``, ``air_forecast``, ``geo``). Template ids are stored in
``Task.meta["template"]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import join, pick

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "French",
    "zh_cn": "Simplified Chinese",
    "it": "Italian",
    "de": "German",
    "ru": "Russian",
    "ja": "Japanese",
    "nl": "Dutch",
}


class Writer:
    """Renders the parts of a goal: the location phrase and the optional-parameter phrases."""

    def __init__(self, rng: np.random.Generator, spec: Any) -> None:
        self.rng = rng
        self.spec = spec

    def loc(self) -> str:
        """The location phrase (coordinates, a ZIP code or a city, in one of several forms)."""
        s, rng = self.spec, self.rng
        if s.lat:
            lon_word = "longitute" if rng.random() < 0.15 else "longitude"
            la, lo = s.lat, s.lon
            forms = [
                f"at latitude {la}, {lon_word} {lo}",
                f"at {lon_word} {lo}, latitude {la}",
                f"at the location with latitude {la} and {lon_word} {lo}",
                f"at the place where {lon_word} = {lo} and latitude = {la}",
                f"at the location with (latitude, {lon_word}) = ({la}, {lo})",
                f"at the location with ({lon_word}, latitude) = ({lo}, {la})",
                f"at lat {la}, lon {lo}",
                f"at the coordinates latitude {la} / {lon_word} {lo}",
            ]
            return pick(rng, forms)
        if s.zip:
            z = s.zip
            return pick(
                rng,
                [
                    f"in {z}",
                    f"in zip code {z}",
                    f"in the {z} zip code",
                    f"for ZIP {z}",
                    f"in the area with postal code {z}",
                ],
            )
        return pick(rng, [f"in {s.city}", f"in the city of {s.city}", f"for {s.city}"])

    def _parts(self) -> list[str]:
        s, rng = self.spec, self.rng
        parts = []
        if s.units:
            parts.append(
                pick(
                    rng,
                    {
                        "standard": [
                            "in standard units",
                            "in Kelvin",
                            "in standard units (Kelvin)",
                        ],
                        "metric": ["in Celsius", "in metric units", "in degrees Celsius"],
                        "imperial": ["in Fahrenheit", "in imperial units", "in degrees Fahrenheit"],
                    }[s.units],
                )
            )
        if s.mode:
            parts.append(pick(rng, ["in json", "in JSON format", "as JSON", "in json mode"]))
        if s.lang:
            name = LANGUAGE_NAMES[s.lang]
            parts.append(pick(rng, [f"in {name}", f"with the descriptions in {name}"]))
        order = [int(i) for i in self.rng.permutation(len(parts))]
        return [parts[i] for i in order]

    def inline(self) -> str:
        """The options right after a noun phrase (``" in Celsius"``), if at most one."""
        parts = self._parts()
        return f" {parts[0]}" if len(parts) == 1 else ""

    def wants_sentence(self) -> bool:
        """Whether the options need a sentence of their own (two or more)."""
        return sum(bool(v) for v in (self.spec.units, self.spec.mode, self.spec.lang)) >= 2

    def sentence(self) -> str:
        """The options as a follow-up sentence (empty when none)."""
        parts = self._parts()
        if not parts:
            return ""
        lead = pick(
            self.rng,
            [
                "Please give me the result",
                "I'd like the answer",
                "Please respond",
                "Could you give me the output",
                "Give me the response",
            ],
        )
        end = "?" if lead.startswith("Could") else "."
        return f" {lead} {join(parts)}{end}"


@dataclass(frozen=True)
class Template:
    """A goal sentence: its id, the endpoint kind it phrases and how it renders."""

    tid: str
    kind: str  # current, forecast, air_now, air_forecast, geo
    render: Callable[[Writer], str]
    sentence_style: bool = False  # options always as a sentence at the end


def _opts(w: Writer, sentence_style: bool) -> tuple[str, str]:
    """(inline, sentence) text for the options; exactly one is non-empty when there are any."""
    if sentence_style or w.wants_sentence():
        return "", w.sentence()
    return w.inline(), ""


def _with_opts(fn: Callable[[Writer, str, str], str], sentence_style: bool) -> Callable:
    def render(w: Writer) -> str:
        inline, sentence = _opts(w, sentence_style)
        return fn(w, inline, sentence)

    return render


_T = Template
TEMPLATES: tuple[Template, ...] = (
    # current weather
    _T("cur_like_now", "current", _with_opts(
        lambda w, i, s: f"What's the weather like right now {w.loc()}?{s}", True)),
    _T("cur_temperature", "current", _with_opts(
        lambda w, i, s: f"How's the current temperature{i} {w.loc()}?{s}", False)),
    _T("cur_conditions", "current", _with_opts(
        lambda w, i, s: f"Tell me the current weather conditions {w.loc()}{i}.{s}", False)),
    _T("cur_raining", "current", _with_opts(
        lambda w, i, s: f"Is it raining {w.loc()} at the moment?{s}", True)),
    _T("cur_wind_humidity", "current", _with_opts(
        lambda w, i, s: f"I need the current wind speed and humidity{i} {w.loc()}.{s}", False)),
    _T("cur_heading_out", "current", _with_opts(
        lambda w, i, s: f"I'm heading out soon. What's the weather {w.loc()} right now{i}?{s}",
        False)),
    # forecast
    _T("fc_this_week", "forecast", _with_opts(
        lambda w, i, s: f"How's the weather looking this week {w.loc()}?{s}", True)),
    _T("fc_wind_tomorrow", "forecast", _with_opts(
        lambda w, i, s: f"Get the wind speed data{i} for tomorrow {w.loc()} please.{s}", False)),
    _T("fc_future_data", "forecast", _with_opts(
        lambda w, i, s: f"Request for the future weather data{i} {w.loc()}.{s}", False)),
    _T("fc_following_days", "forecast", _with_opts(
        lambda w, i, s: f"Do you know what's the weather like in the following days {w.loc()}?{s}",
        True)),
    _T("fc_trip", "forecast", _with_opts(
        lambda w, i, s: f"I'm planning a trip. What's the 5-day forecast{i} {w.loc()}?{s}", False)),
    _T("fc_humidity_visibility", "forecast", _with_opts(
        lambda w, i, s: f"How's the humidity and visibility level for the next few days{i} "
        f"{w.loc()}?{s}", False)),
    # air pollution now
    _T("air_this_moment", "air_now",
       lambda w: f"Please give me the air quality data {w.loc()} at this moment."),
    _T("air_current_level", "air_now",
       lambda w: f"What's the current air pollution level {w.loc()}?"),
    _T("air_aqi_now", "air_now",
       lambda w: f"Check the AQI and pollutant concentrations right now {w.loc()}."),
    # air pollution forecast
    _T("airfc_next_days", "air_forecast",
       lambda w: f"How's the air quality for the next few days {w.loc()}?"),
    _T("airfc_expect", "air_forecast",
       lambda w: f"Can you tell me what to expect on the air quality in the coming days {w.loc()}?"),
    _T("airfc_forecast", "air_forecast",
       lambda w: f"Give me the air pollution forecast {w.loc()}."),
    # geocoding
    _T("geo_up_to", "geo",
       lambda w: f"Find the coordinates of up to {w.spec.limit} places called {w.spec.city}."),
    _T("geo_lat_lon_of", "geo",
       lambda w: f"What are the latitude and longitude of {w.spec.city}? Give me at most "
       f"{w.spec.limit} results."),
    _T("geo_geocode", "geo",
       lambda w: f"Geocode the city name {w.spec.city} and return no more than {w.spec.limit} "
       f"matches."),
)  # fmt: skip
"""The goal templates (the id is stored in ``Task.meta["template"]``)."""

_TEMPLATE_BY_ID = {t.tid: t for t in TEMPLATES}
