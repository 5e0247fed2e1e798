"""Which records of a library are the same work recorded twice (``refbridge dedupe``): the
pairs worth comparing and the groups they form. Whether two records are one work, and what
keeps them apart, is ``sameness.works``'s answer (``same_work``, ``barrier``). This module must
never change a record, read a file or make a request.
"""

from __future__ import annotations

from collections.abc import Sequence

from refbridge.citekeys import BBT_SKIP_WORDS
from refbridge.model import Record
from refbridge.sameness.people import family_key
from refbridge.sameness.works import Profile, barrier, same_work


def _blocks(profile: Profile) -> set[str]:
    """The keys under which a record's candidate duplicates are filed: its identifiers, the
    first words of its title, its main title and its title after the name heading it (all of
    them, and those of substance)."""
    keys = {f"{kind}:{value}" for kind, values in profile.identifiers.items()
            for value in values}
    for title in (profile.title, profile.main_title, profile.after_name):
        if title:
            keys.add("title:" + " ".join(title.split()[:3]))
            substance = [word for word in title.split() if word not in BBT_SKIP_WORDS]
            keys.add("words:" + " ".join(substance[:3]))  # "Distilling (the) knowledge"
    families = [family_key(p) for p in profile.people[:1]]
    if families and families[0]:
        keys.add(f"first:{families[0]}:{profile.record.year}")
    return keys


def candidate_pairs(profiles: Sequence[Profile]) -> list[tuple[int, int]]:
    """Pairs of positions that may be one work: those that share a block key (so a library
    of n records is compared in about n comparisons, not n²)."""
    blocks: dict[str, list[int]] = {}
    for position, profile in enumerate(profiles):
        for key in _blocks(profile):
            blocks.setdefault(key, []).append(position)
    pairs: set[tuple[int, int]] = set()
    for members in blocks.values():
        for index, i in enumerate(members):
            pairs.update((i, j) for j in members[index + 1:])
    return sorted(pairs)


def duplicate_groups(records: Sequence[Record]) -> list[tuple[list[int], str]]:
    """Positions of records that are one work, group by group (groups of several only, in
    the order of their first record), with the reasons that joined each."""
    profiles = [Profile(record) for record in records]
    groups: dict[int, list[int]] = {i: [i] for i in range(len(records))}
    group_of = list(range(len(records)))
    reasons: dict[int, dict[str, None]] = {}
    for i, j in candidate_pairs(profiles):
        first, second = sorted((group_of[i], group_of[j]))
        if first == second:
            continue
        reason = same_work(profiles[i], profiles[j])
        if reason is None or any(barrier(profiles[k], profiles[m]) for k in groups[first]
                                 for m in groups[second]):
            continue  # not one work, or joining would put two that must stay apart together
        for member in groups[second]:
            group_of[member] = first
        groups[first] = sorted(groups[first] + groups.pop(second))
        joined = reasons.setdefault(first, {})
        joined.update(reasons.pop(second, {}))
        joined[reason] = None
    return [(members, ", ".join(reasons[key])) for key, members in sorted(groups.items())
            if len(members) > 1]
