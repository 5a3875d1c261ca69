"""The one line every Flux plugin gives for a rejected job (jobspec.flux): bounded, on one
line, whatever went wrong."""
import jobspec
from jobspec.flux import VERDICT_BYTES, bounded, instance, rejection


def test_bounded_keeps_short_lines_and_cuts_long_ones_at_a_character():
    assert VERDICT_BYTES == 159
    assert bounded("jobspec: short") == "jobspec: short"
    assert bounded("a\nb\x1b[31m") == "a?b?[31m"
    cut = bounded("é" * 200)
    assert cut.endswith("...") and len(cut.encode()) <= VERDICT_BYTES
    assert cut[:-3] == "é" * ((VERDICT_BYTES - 3) // 2)


def test_rejection_is_the_summary_or_what_went_wrong_bounded():
    try:
        jobspec.check_jobspec('{"version": 1, "resources": 5}')
    except jobspec.Error as error:
        assert rejection(error) == error.summary
    line = rejection(MemoryError("x" * 100000))
    assert line.startswith("jobspec: MemoryError: xxx") and len(line.encode()) <= VERDICT_BYTES


def test_instance_outside_flux_is_of_unknown_size(monkeypatch):
    monkeypatch.setenv("FLUX_URI", "local:///nonexistent/jobspec-test")
    assert instance() is True
