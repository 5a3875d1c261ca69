"""Check jobs against RFC 14 (and RFC 25 with --jobspec-v1) with jobspec

Installed into flux-core's validator plugins by jobspec's meson install, so that
`[ingest.validator] plugins = ["jobspec-rfc"]` finds it by name; the plugin itself is
jobspec.flux.validator (docs/FLUX.md).
"""
from jobspec.flux.validator import Validator  # noqa: F401  (what flux job-validator loads)
