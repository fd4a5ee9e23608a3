"""The fidelity harness (simulator/towers/physics/fidelity.py): its corpus, its arithmetic of agreement
and convergence, and one small run through the physics."""

from __future__ import annotations

import math

import pytest

from simulator.towers.physics import fidelity
from simulator.towers.physics.fidelity import Judgement, Rung, agreement, converged_reference


def _judged(name: str, verdicts: dict) -> Judgement:
    return Judgement(Rung(name), {case: list(v) for case, v in verdicts.items()})


def test_the_corpus_holds_every_group_the_issue_names():
    cases = fidelity.corpus()
    groups = {c.group: sum(1 for x in cases if x.group == c.group) for c in cases}
    assert groups["random"] == 300 and groups["validation"] >= 39 and groups["benchmark"] == 6
    assert groups["column"] == 4 * len(fidelity.COLUMN_HEIGHTS) and groups["slope"] == 6
    names = [c.name for c in cases]
    assert len(names) == len(set(names))
    heights = [len(c.scene.towers[0].placements) + 1 for c in cases if c.name.endswith("_exact")]
    assert heights == [20, 25, 30, 35, 40]
    for case in cases:
        if case.group == "random":
            assert 4 <= len(case.scene.towers[0].placements) <= 12
            assert case.scene.tremor == fidelity.RANDOM_HAND


def test_random_towers_are_seeded_and_of_real_distinct_pieces():
    from simulator.towers.pieces.catalogue import CATALOGUE

    kinds = {spec.id for spec in CATALOGUE}
    assert fidelity.random_tower(5) == fidelity.random_tower(5) != fidelity.random_tower(6)
    for seed in range(50):
        tower = fidelity.random_tower(seed)
        assert set(tower) <= kinds and len(set(tower)) == len(tower)


def test_slopes_lie_either_side_of_the_friction_angle():
    lacquer_on_beech = math.degrees(math.atan(math.sqrt(0.35 * 0.5)))
    assert fidelity.friction_angle_deg("cone-small", "base") == pytest.approx(lacquer_on_beech)
    assert fidelity.friction_angle_deg("cone-small", "spool") == pytest.approx(math.degrees(math.atan(0.35)))
    slopes = {c.name: c.scene.slope_deg for c in fidelity.corpus(random_towers=0) if c.group == "slope"}
    assert slopes["slope_cone-small_on_base_holds"] == pytest.approx(lacquer_on_beech - 1, abs=0.01)
    assert slopes["slope_cone-small_on_base_slides"] == pytest.approx(lacquer_on_beech + 1, abs=0.01)


def test_agreement_counts_towers_and_tells_stood_from_fell_at():
    a = _judged("a", {"x": [(True, None)], "y": [(False, 2)], "z": [(True, None), (False, 0)]})
    b = _judged("b", {"x": [(True, None)], "y": [(False, 3)], "z": [(False, 1), (False, 0)]})
    result = agreement(a, b)
    assert (result.towers, result.same_verdict, result.same_stood) == (4, 2, 3)
    assert result.differing == ("y", "z[0]")
    assert result.share == 0.5 and result.stood_share == 0.75


def test_a_verdict_among_the_other_settings_outcomes_agrees_within_chance():
    a = _judged("a", {"x": [(False, 2)], "y": [(False, 2)], "z": [(True, None)]})
    b = _judged("b", {"x": [(False, 3)], "y": [(False, 3)], "z": [(False, 4)]})
    a.outcomes = {"x": [frozenset({(False, 2), (False, 3)})]}      # x's hand variants also fell at 3
    b.outcomes = {"z": [frozenset({(False, 4), (False, 5)})]}      # z: chance, but never stood
    result = agreement(a, b)
    assert (result.same_verdict, result.within_chance, result.by_chance) == (0, 1, 2)
    assert result.beyond_chance == ("y", "z")
    assert agreement(b, a).within_chance == 1                       # either way round


def test_random_towers_are_judged_again_with_their_hands_draws_scaled():
    [case] = [c for c in fidelity.corpus(random_towers=1, columns=()) if c.group == "random"]
    variants = case.variants()
    assert [v.tremor.position_mm / case.scene.tremor.position_mm for v in variants] == \
        pytest.approx(fidelity.HAND_VARIANTS)
    assert all(v.towers == case.scene.towers and v.seed == case.scene.seed for v in variants)
    assert all(c.variants() == () for c in fidelity.corpus(random_towers=0) if c.group != "random")


def test_judging_gathers_each_towers_outcomes_over_the_variants(monkeypatch):
    [case] = [c for c in fidelity.corpus(random_towers=1, columns=()) if c.group == "random"]
    fell_at = iter([3, 3, 4, 3, 5])          # the hand, then its four variants

    monkeypatch.setattr(fidelity, "_judge_scene", lambda scene, rung: ([(False, next(fell_at))], 1.0))
    judged = fidelity.judge([case], fidelity.CHOSEN)
    assert judged.verdicts[case.name] == [(False, 3)]
    assert judged.outcomes[case.name] == [frozenset({(False, 3), (False, 4), (False, 5)})]
    assert (judged.wall_seconds, judged.variant_seconds) == (1.0, 4.0)


@pytest.mark.slow
def test_two_worker_processes_judge_as_one_does():
    """judge() runs on the program's job runner (processes.run_jobs): spawned workers finish
    in any order, and each verdict still lands on its own tower."""
    cases = [c for c in fidelity.corpus(random_towers=2, columns=()) if c.group in ("random", "slope")][:4]
    seen = []
    alone = fidelity.judge(cases, fidelity.CHOSEN, workers=1)
    paired = fidelity.judge(cases, fidelity.CHOSEN, workers=2, progress=lambda done, total, what: seen.append(done))
    assert paired.verdicts == alone.verdicts and paired.outcomes == alone.outcomes
    assert seen == list(range(1, len(seen) + 1)) and len(seen) > len(cases)     # the variants too


def test_the_reference_is_the_first_rung_the_next_no_longer_changes():
    def rung(changed: int) -> Judgement:        # 1000 towers, `changed` of them fall
        return _judged(str(changed), {f"t{i}": [(i >= changed, None if i >= changed else 0)]
                                      for i in range(1000)})

    assert converged_reference([rung(40), rung(20), rung(18), rung(17)]) == 1   # 0.2 % < 0.5 %
    assert converged_reference([rung(40), rung(20), rung(10)]) is None          # 1 % each time
    chaotic = [rung(40), rung(20), rung(10)]
    for name in ("t10", "t11", "t12", "t13", "t14", "t15", "t16", "t17", "t18", "t19"):
        chaotic[1].outcomes[name] = [frozenset({(True, None), (False, 0)})]   # 2 -> 3 by chance
    assert converged_reference(chaotic) == 1


def test_what_physics_says_is_known_for_columns_slopes_and_validation_scenes():
    cases = {c.name: c for c in fidelity.corpus(random_towers=1)}
    assert fidelity.expected_verdicts(cases["column_30_exact"]) == [(True, None)]
    assert fidelity.expected_verdicts(cases["slope_spool_on_base_slides"]) == [(False, 0)]
    assert fidelity.expected_verdicts(cases["random_0"]) is None
    assert fidelity.expected_verdicts(cases["com-outside-edge"]) == [(False, 0)]


@pytest.mark.slow
def test_a_small_run_prints_agreement_and_wall_times():
    cases = [c for c in fidelity.corpus(random_towers=1, columns=())
             if c.group == "random" or c.name.startswith("slope_cone-small_on_base")]
    assert len(cases) == 3
    ladder = fidelity.LADDER[:2]
    chosen, rungs, reference = fidelity.run(cases, ladder=ladder, workers=2)
    assert set(chosen.verdicts) == {c.name for c in cases} and chosen.wall_seconds > 0
    text = fidelity.format_report(cases, chosen, rungs, reference)
    assert "chosen" in text and "substeps x2" in text and "wall" in text and "chance" in text
    assert all(len(chosen.outcomes[c.name][0]) >= 1 for c in cases) and chosen.variant_seconds > 0


def test_physics_overrides_are_literals_of_real_fields_or_one_line_errors():
    from simulator.towers.physics.world import PhysicsSettings

    assert PhysicsSettings.changes_from(["substeps=4", "tall_substeps=()", "warm_starting=None"]) == \
        {"substeps": 4, "tall_substeps": (), "warm_starting": None}
    for bad, said in (("subteps=4", "no setting 'subteps'"), ("substeps=(", "a Python literal"),
                      ("substeps", "a Python literal")):
        with pytest.raises(ValueError, match=said):
            PhysicsSettings.changes_from([bad])
