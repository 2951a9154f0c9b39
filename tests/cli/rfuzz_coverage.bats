#!/usr/bin/env bats
# rfuzz steered by TVM's coverage (issue 32), against a stand-in oracle that reports made-up edges
# (cov_oracle.py, the coverage extension of PROTOCOL.md) and against the fake TVM's tvm-server:
# coverage decides the pool, Tzer's (program, passes, N) loop, resume and merge keep the edges,
# rfuzz plot, malformed coverage, and campaigns that cannot change their feedback.

load rfuzz_helpers

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  RFMT=${RFMT:-$ROOT/bin/rfmt}
  BIN=$(dirname "$RFMT")
  RFUZZ=$BIN/rfuzz
  T=$BATS_TEST_TMPDIR
  unset TVM_HOME FAKE_TVM_PLANTED COV_MODE COV_BAD_ONCE COV_FAIL RELAYKIT_COVERAGE RELAYKIT_PYTHON
  export PYTHONPYCACHEPREFIX=$T/pycache
  ORACLE="python3 $BATS_TEST_DIRNAME/cov_oracle.py --args-beside"
}

# campaign.json's field at a path, e.g. j c counts.pass_rounds
j() {
  python3 -c '
import json, sys
v = json.load(open(sys.argv[1] + "/campaign.json"))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v.get(k)
print(len(v) if isinstance(v, list) else v)' "$1" "$2"
}

# The edge indices of a campaign's coverage file (LEB128 gaps), one a line.
edges() {
  python3 -c '
import json, sys
d = sys.argv[1]
name = json.load(open(d + "/campaign.json"))["coverage"]["file"]
b, last, gap, shift = open(d + "/" + name, "rb").read(), -1, 0, 0
for x in b:
    gap |= (x & 0x7F) << shift
    shift += 7
    if not x & 0x80:
        last += gap + 1
        print(last)
        gap, shift = 0, 0' "$1"
}

@test "coverage decides the pool: one edge for every program keeps a pool of one, where features grow it" {
  COV_MODE=one run "$RFUZZ" --oracle "$ORACLE" --rounds 16 --no-reduce -o "$T/c"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'feedback: ' <<< "$output")" -eq 1 ]
  [[ "$output" == *"feedback: TVM's edge coverage (the oracle reports it)"* ]]
  [ "$(j "$T/c" feedback)" = coverage ]
  [ "$(j "$T/c" coverage.edges)" -eq 1 ]
  [[ "$output" == *"pool 1, 1 TVM edges, "* ]]
  [ "$(j "$T/c" pool)" -eq 1 ]
  [ "$(edges "$T/c")" = 7 ]
  # the same answers, features feedback: every new operator joins
  COV_MODE=one run "$RFUZZ" --oracle "$ORACLE" --feedback features --rounds 16 --no-reduce -q -o "$T/f"
  [ "$status" -eq 0 ]
  [ "$(j "$T/f" feedback)" = features ]
  [ "$(j "$T/f" pool)" -gt 3 ]
  [ "$(j "$T/f" coverage)" = None ]
}

@test "Tzer's loop: a pool program's passes are mutated alone up to --nmax rounds; better passes replace its own" {
  run "$RFUZZ" --oracle "$ORACLE" --rounds 60 --nmax 3 --mix build=1 --no-reduce -q -o "$T/c"
  [ "$status" -eq 0 ]
  rounds=$(j "$T/c" counts.pass_rounds) gains=$(j "$T/c" counts.pass_gains)
  [ "$rounds" -gt 0 ] && [ "$gains" -gt 0 ] && [ "$gains" -lt "$rounds" ]
  # no entry is past --nmax tries, and a pass-only round's program never joins the pool itself
  python3 -c '
import json, sys
c = json.load(open(sys.argv[1] + "/campaign.json"))
assert all(e["tries"] <= 3 for e in c["pool"]), c["pool"]
assert c["counts"]["pool_adds"] == len(c["pool"])
assert any(e["passes"] for e in c["pool"])' "$T/c"
  grep -q "pass-only rounds $rounds, $gains of them passed with new edges" "$T/c/index.md"
  grep -q "TVM's edges reached: $(j "$T/c" coverage.edges) of 4096" "$T/c/index.md"
  [ "$(edges "$T/c" | wc -l)" -eq "$(j "$T/c" coverage.edges)" ]
}

@test "both feedbacks: features admit too, and only a program that reached new edges gets pass-only rounds" {
  # one edge for every program: the first earns it; the others join for their features alone,
  # with their pass-only rounds counted as done (their passes change with their programs)
  COV_MODE=one run "$RFUZZ" --oracle "$ORACLE" --feedback both --rounds 40 --nmax 3 --mix build=1 --no-reduce -q -o "$T/c"
  [ "$status" -eq 0 ]
  [ "$(j "$T/c" feedback)" = both ]
  [ "$(j "$T/c" pool)" -gt 3 ]
  [ "$(j "$T/c" counts.pass_rounds)" -le 3 ] && [ "$(j "$T/c" counts.pass_gains)" -eq 0 ]
  python3 -c '
import json, sys
pool = json.load(open(sys.argv[1] + "/campaign.json"))["pool"]
assert all(e["tries"] == 3 for e in pool[1:]), pool' "$T/c"
}

@test "a failing program's new edges are counted but earn it no place: only its group's first program joins" {
  # every program with 'add' fails with one signature: one group, whose first program joins; the
  # others' edges are in the campaign's count, and none of them joins the pool for them
  COV_FAIL=add run "$RFUZZ" --oracle "$ORACLE" --rounds 80 --mix build=1 --no-reduce -q -o "$T/c"
  [ "$status" -eq 0 ]
  [ "$(j "$T/c" counts.failed)" -gt 3 ]
  [ "$(j "$T/c" groups)" -eq 1 ]
  [ "$(grep -lw add "$T/c"/pool/*.relay | wc -l)" -eq 1 ]
  # the edges a failing program reached are counted all the same: the edge of the word 'add'
  # (only failing programs hold it) is among the campaign's
  edges "$T/c" | grep -qx "$(python3 -c 'import zlib; print(zlib.crc32(b"add") % 4096)')"
}

@test "a resumed campaign has exactly the coverage it had; merge unions the shards' edges" {
  "$RFUZZ" --oracle "$ORACLE" --rounds 30 --no-reduce -q -o "$T/whole"
  "$RFUZZ" --oracle "$ORACLE" --rounds 11 --no-reduce -q -o "$T/parts"
  "$RFUZZ" --oracle "$ORACLE" --rounds 30 --no-reduce -q -o "$T/parts"
  [ "$(state "$T/whole")" = "$(state "$T/parts")" ]
  cmp "$T/whole/coverage.000030.edges" "$T/parts/coverage.000030.edges"
  [ "$(ls "$T/parts" | grep -c '^coverage\.')" -eq 1 ] # the older rounds' edge files are gone
  # shards
  "$RFUZZ" --oracle "$ORACLE" --rounds 10 --shard 1/2 --no-reduce -q -o "$T/s1"
  "$RFUZZ" --oracle "$ORACLE" --rounds 10 --shard 2/2 --no-reduce -q -o "$T/s2"
  run "$RFUZZ" merge -o "$T/m" "$T/s1" "$T/s2"
  [ "$status" -eq 0 ]
  union=$( (edges "$T/s1"; edges "$T/s2") | sort -n -u)
  [ "$(edges "$T/m")" = "$(sort -n <<< "$union")" ]
  [[ "$output" == *"$(wc -l <<< "$union") edges of TVM"* ]]
  [ "$(j "$T/m" feedback)" = coverage ]
}

@test "rfuzz plot draws coverage and groups of several campaigns as a PNG and an SVG; index.md shows it" {
  command -v gnuplot > /dev/null || skip "no gnuplot (apt-get install gnuplot-nox)"
  "$RFUZZ" --oracle "$ORACLE" --rounds 8 --no-reduce -q -o "$T/a"
  COV_MODE=one "$RFUZZ" --oracle "$ORACLE" --rounds 8 --no-reduce -q -o "$T/b"
  # a campaign draws its own picture at the end and links it
  [ -s "$T/a/plot.png" ] && [ -s "$T/a/plot.svg" ]
  grep -q '!\[coverage and bug groups over time\](plot.png)' "$T/a/index.md"
  run "$RFUZZ" plot -o "$T/both" --title 'two arms' "$T/a" "$T/b"
  [ "$status" -eq 0 ]
  python3 -c '
import struct, sys, xml.etree.ElementTree as ET
png = open(sys.argv[1] + ".png", "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert w > 0 and h > 0 and png.rstrip(b"\0").endswith(b"IEND\xaeB`\x82"), "a cut PNG"
root = ET.parse(sys.argv[1] + ".svg").getroot()
assert root.tag.endswith("svg"), root.tag
text = ET.tostring(root, encoding="unicode")
assert "two arms" in text and "TVM edges reached" in text and "bug groups" in text' "$T/both"
  grep -q "$T/a" "$T/both.svg" && grep -q "$T/b" "$T/both.svg"
  # nothing to draw
  mkdir "$T/empty"
  run "$RFUZZ" plot "$T/empty"
  [ "$status" -eq 2 ] && [[ "$output" == *"$T/empty: no progress.jsonl to draw"* ]]
  run "$RFUZZ" plot
  [ "$status" -eq 2 ] && [[ "$output" == *"give at least one CAMPAIGN"* ]]
}

@test "a malformed coverage field: the server is restarted and the program asked again; one that never mends stops it" {
  COV_BAD_ONCE=$T/bad.once run "$RFUZZ" --oracle "$ORACLE" --rounds 6 --no-reduce -q -o "$T/c"
  [ "$status" -eq 0 ]
  [ -e "$T/bad.once" ]
  [ "$(grep -c 'coverage field is malformed; it is restarted and the program asked again' <<< "$output")" -eq 1 ]
  [ "$(j "$T/c" counts.programs)" -eq 6 ]
  [ "$(j "$T/c" counts.passed)" -ge 5 ]
  COV_MODE=bad run "$RFUZZ" --oracle "$ORACLE" --rounds 6 --no-reduce -q -o "$T/d"
  [ "$status" -eq 2 ]
  [[ "$output" == *"keeps answering malformed coverage; stopping"* ]]
  [ "$(j "$T/d" counts.programs)" -eq 0 ]
}

@test "feedback is the campaign's: resumed with the other, or against an oracle without coverage, it is refused with the reason" {
  "$RFUZZ" --oracle "$ORACLE" --feedback features --rounds 4 --no-reduce -q -o "$T/f"
  cp "$T/f/campaign.json" "$T/f.json"
  run "$RFUZZ" --oracle "$ORACLE" --feedback coverage --rounds 8 --no-reduce -q -o "$T/f"
  [ "$status" -eq 2 ]
  [[ "$output" == *"is a campaign with features feedback: it cannot continue with --feedback coverage"* ]]
  cmp "$T/f/campaign.json" "$T/f.json"
  "$RFUZZ" --oracle "$ORACLE" --rounds 4 --no-reduce -q -o "$T/c"
  run "$RFUZZ" --oracle "$ORACLE" --feedback features --rounds 8 --no-reduce -q -o "$T/c"
  [ "$status" -eq 2 ] && [[ "$output" == *"with coverage feedback: it cannot continue with --feedback features"* ]]
  COV_MODE=none run "$RFUZZ" --oracle "$ORACLE" --rounds 8 --no-reduce -q -o "$T/c"
  [ "$status" -eq 2 ]
  [[ "$output" == *"this campaign's feedback is TVM's coverage, and the oracle reports none"* ]]
  [ "$(j "$T/c" counts.programs)" -eq 4 ]
  run "$RFUZZ" --oracle "$ORACLE" --feedback fuzzy -o "$T/x"
  [ "$status" -eq 2 ] && [[ "$output" == *"--feedback takes coverage, features, both or auto"* ]]
}

@test "without coverage from the oracle: features feedback, said once, and no coverage asked of it again" {
  COV_MODE=none run "$RFUZZ" --oracle "$ORACLE" --rounds 10 --no-reduce -o "$T/c"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'feedback: ' <<< "$output")" -eq 1 ]
  [[ "$output" == *"feedback: features of the programs and their passes (the oracle reports no coverage)"* ]]
  [ "$(j "$T/c" feedback)" = features ]
  [ "$(j "$T/c" coverage)" = None ]
  [ "$(j "$T/c" counts.pass_rounds)" -eq 0 ]
  [ "$(j "$T/c" pool)" -gt 1 ]
  ! ls "$T/c" | grep -q '^coverage\.'
}

@test "the fake TVM's tvm-server reports edges (RELAYKIT_COVERAGE=1): a campaign through it is steered by them" {
  use_fake_tvm
  run "$RFUZZ" --oracle "$ROOT/interestingness/tvm-server --args-beside --timeout 20" --rounds 12 --mix build=1 \
    --no-reduce -o "$T/c"
  [ "$status" -eq 0 ]
  [[ "$output" == *"feedback: TVM's edge coverage (the oracle reports it)"* ]]
  [ "$(j "$T/c" coverage.edges)" -gt 10 ]
  [ "$(j "$T/c" counts.pass_rounds)" -gt 0 ]
  # the server's outcome carries the set and the count of edges it had not seen before
  p=$(ls "$T/c/pool"/*.relay | head -n 1)
  printf 'build\n--opt-level\n3\n' > "$p.args"
  out=$(printf '%s\n%s\n' "$p" "$p" | RELAYKIT_COVERAGE=1 RELAYKIT_ORACLE_OUTCOME=1 "$ROOT/interestingness/tvm-server" --args-beside)
  python3 -c '
import json, sys
c = json.load(open(sys.argv[1] + ".outcome"))["coverage"]
assert c["edges"] > 0 and c["new"] == 0 and c["set"], c' "$p"
}
