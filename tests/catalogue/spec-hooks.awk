# Print every hook lket(5) documents with its fields, one per line, in the
# form "lket-gencat fields" writes: "addevent.x a(INT8), b(STRING)".
# Input: the markdown of lket(5).
function flush() {
	if (hook != "")
		print hook (fields == "" ? "" : " " fields)
	hook = ""; fields = ""
}
{ gsub(/\\_/, "_") }
/^#/ { flush(); next }
/^- \*\*/ {
	flush()
	line = $0
	sub(/^- \*\*/, "", line)
	sub(/\*\*.*/, "", line)
	if (line ~ /^addevent\./ || line == "process_snapshot()")
		hook = line
	next
}
hook != "" {
	line = $0
	while (match(line, /[a-z_0-9]+\((INT8|INT16|INT32|INT64|STRING|INR8)\)/)) {
		tok = substr(line, RSTART, RLENGTH)
		if (tok !~ /^common_data/)
			fields = fields (fields == "" ? "" : ", ") tok
		line = substr(line, RSTART + RLENGTH)
	}
}
END { flush() }
