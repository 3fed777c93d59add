# io-expect.awk: check a workload's EXPECT lines against lket-b2a's text.
#
#   awk -v group=GROUP -v label=LABEL -f io-expect.awk EXPECTFILE TRACE.txt
#
# EXPECTFILE: "PID n" then lines "EXPECT HOOK RETURN FIELD=VALUE...", in
# the order the workload made the calls.  For each, in that order, the
# trace must have a GROUP.HOOK.entry line of that process holding every
# FIELD=VALUE, followed (next record of the same thread with that hook's
# return) by GROUP.HOOK.return with return=RETURN.  Prints one "ok" or
# "not ok" line per expectation.
FNR == NR {
	if ($1 == "PID") pid = $2
	if ($1 == "EXPECT") { ne++; ehook[ne] = $2; eret[ne] = $3
		etoks[ne] = ""; for (i = 4; i <= NF; i++) etoks[ne] = etoks[ne] " " $i }
	next
}
# TIME CPU TID PID COMM EVENT fields... (the workloads are single-threaded:
# TID is the PID, which lket-b2a may not know for a process forked after
# the snapshot: "-")
$3 == pid { nl++; ltid[nl] = $3; lev[nl] = $6; sub(/^addevent\./, "", lev[nl]); line[nl] = $0 }
function has_all(s, toks,   n, t, i) {
	n = split(toks, t, " ")
	for (i = 1; i <= n; i++)
		if (index(" " s " ", " " t[i] " ") == 0) return 0
	return 1
}
END {
	pos = 1
	for (e = 1; e <= ne; e++) {
		want = group "." ehook[e] ".entry"; found = 0
		for (l = pos; l <= nl; l++) {
			if (lev[l] != want || !has_all(line[l], etoks[e])) continue
			found = l; break
		}
		what = label ": " ehook[e] etoks[e] " -> " eret[e]
		if (!found) { print "not ok - " what ": no entry record"; continue }
		rwant = group "." ehook[e] ".return"; rl = 0
		for (l = found + 1; l <= nl; l++)
			if (ltid[l] == ltid[found] && lev[l] == rwant) { rl = l; break }
		if (!rl) { print "not ok - " what ": no return record"; continue }
		if (!has_all(line[rl], "return=" eret[e])) {
			print "not ok - " what ": " line[rl]; continue }
		print "ok - " what
		pos = found + 1
	}
	if (ne == 0) print "not ok - " label ": the workload printed no expectations"
}
