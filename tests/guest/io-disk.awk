# io-disk.awk: follow the requests of one disk through a decoded trace.
#   awk -v major=M -v minor=N -v elv=NAME [-v scsi=1] -f io-disk.awk TRACE.txt
# Prints "ok - ..." / "not ok - ..." lines.
function f(name,   i, n, kv) {	# the value of field NAME on this line
	for (i = 7; i <= NF; i++) {
		n = index($i, "=")
		if (substr($i, 1, n - 1) == name) return substr($i, n + 1)
	}
	return ""
}
function lowbyte(h,   x) {	# the low 8 bits of "0x..." (any awk)
	h = tolower(h); x = substr(h, length(h) - 1)
	if (substr(x, 1, 1) == "x") x = "0" substr(x, 2)
	return (index("0123456789abcdef", substr(x, 1, 1)) - 1) * 16 + \
	       index("0123456789abcdef", substr(x, 2, 1)) - 1
}
function preflush(h,   x) {	# REQ_PREFLUSH (1 << 18) set in "0x..."?
	h = tolower(h)
	if (length(h) < 7) return 0
	x = index("0123456789abcdef", substr(h, length(h) - 4, 1)) - 1
	return int(x / 4) % 2
}
{ ev = $6; sub(/^addevent\./, "", ev) }
ev == "ioscheduler.elv_add_request" && f("disk_major") == major && f("disk_minor") == minor {
	a = f("request_addr"); nadd++
	if (f("elevator_name") != "\"" elv "\"") badelv++
	op = lowbyte(f("request_flags"))
	if (preflush(f("request_flags"))) nflush++
	state[a] = "added"; aop[a] = op; if (op == 0) nread++; if (op == 1) nwrite++
	next
}
ev == "ioscheduler.elv_next_request.entry" { if (f("elevator_name") == "\"" elv "\"") nentry++; next }
ev == "ioscheduler.elv_next_request.return" && f("disk_major") == major && f("disk_minor") == minor {
	a = f("request_addr")
	if (state[a] == "added") { state[a] = "started"; nstart++ }
	next
}
ev == "scsi.ioentry" && f("disk_major") == major && f("disk_minor") == minor {
	a = f("request_addr"); if (state[a] == "added") sentry[a] = 1	# before the start
	if (f("device_state") != 2) badstate++
	next
}
ev == "scsi.iodispatching" {
	a = f("request_addr"); if (!(a in state)) next
	if (f("device_state") != 2 || f("channel") != 0 || f("lun") != 0) badstate++
	if (state[a] == "started") sdisp[a] = f("data_direction") ":" f("reqbuf_len")
	if (f("data_direction") == 1 && f("reqbuf_len") == 65536) dwrite64k[a] = 1
	if (f("data_direction") == 2 && f("reqbuf_len") == 65536) dread64k[a] = 1
	next
}
ev == "scsi.iodone" { a = f("request_addr"); if (a in sdisp) sdone[a] = 1; next }
ev == "scsi.iocompleted" {
	a = f("request_addr"); if (a in sdone) { scompl[a] = f("bytes_done") }
	next
}
ev == "ioscheduler.elv_completed_request" && f("disk_major") == major && f("disk_minor") == minor {
	a = f("request_addr")
	if (state[a] == "started") ndone++
	if (state[a] == "added") nflushdone++
	if (state[a] == "started") {
		if (aop[a] <= 1 && a in dwrite64k && scompl[a] == 65536) w64++
		if (aop[a] <= 1 && a in dread64k && scompl[a] == 65536) r64++
		if (a in sentry && a in sdisp && a in sdone && a in scompl) nscsi++
	}
	if (state[a] == "added" || state[a] == "started") delete state[a]
	delete sentry[a]; delete sdisp[a]; delete sdone[a]; delete scompl[a]
	delete dwrite64k[a]; delete dread64k[a]
	next
}
function t(c, what) { print (c ? "ok - " : "not ok - ") elv ": " what }
END {
	t(nadd >= 10, "elv_add_request for " major ":" minor ": " nadd " requests (" nwrite " writes, " nread " reads)")
	t(nwrite >= 4 && nread >= 4, "both writes (op 1) and reads (op 0) added")
	t(badelv == 0, "elevator_name=\"" elv "\" on every add of the disk")
	t(nentry >= nstart && nentry > 0, "elv_next_request.entry names the elevator (" nentry ")")
	t(nstart >= nadd - nflush, "elv_next_request.return with the added address: " nstart " of " nadd " (" nflush " with REQ_PREFLUSH: a data-less flush is issued as the queue's flush request instead)")
	t(ndone + nflushdone == nadd, "elv_completed_request with the added address for every added request: " ndone + nflushdone " of " nadd)
	t(ndone == nstart, "elv_completed_request with the same address for every started request: " ndone " of " nstart)
	if (scsi) {
		t(nscsi == ndone, "scsi ioentry, iodispatching, iodone, iocompleted with the request's address between start and completion: " nscsi)
		t(w64 >= 4, "65536-byte O_DIRECT writes: data_direction=1 reqbuf_len=65536 bytes_done=65536 (" w64 ")")
		t(r64 >= 4, "65536-byte O_DIRECT reads: data_direction=2 reqbuf_len=65536 bytes_done=65536 (" r64 ")")
		t(badstate == 0, "device_state=2 (RUNNING), channel 0, lun 0 throughout")
	}
}
