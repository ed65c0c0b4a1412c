package main

// A minimal protobuf writer for profile.proto (stdlib only, so the
// generator builds without the module proxy). Field numbers follow
// github.com/google/pprof/proto/profile.proto.

type pbuf struct{ b []byte }

func (p *pbuf) varint(x uint64) {
	for x >= 0x80 {
		p.b = append(p.b, byte(x)|0x80)
		x >>= 7
	}
	p.b = append(p.b, byte(x))
}

func (p *pbuf) key(field, wire int) { p.varint(uint64(field)<<3 | uint64(wire)) }

// int64 writes a varint field; zero is omitted as proto3 does.
func (p *pbuf) int64(field int, x int64) {
	if x == 0 {
		return
	}
	p.key(field, 0)
	p.varint(uint64(x))
}

func (p *pbuf) bool(field int, x bool) {
	if x {
		p.key(field, 0)
		p.varint(1)
	}
}

func (p *pbuf) bytes(field int, data []byte) {
	p.key(field, 2)
	p.varint(uint64(len(data)))
	p.b = append(p.b, data...)
}

// packed writes a repeated varint field. Like google/pprof's encoder,
// short lists are written unpacked so readers must accept both forms.
func (p *pbuf) packed(field int, xs []int64) {
	if len(xs) == 0 {
		return
	}
	if len(xs) <= 2 {
		for _, x := range xs {
			p.key(field, 0)
			p.varint(uint64(x))
		}
		return
	}
	var inner pbuf
	for _, x := range xs {
		inner.varint(uint64(x))
	}
	p.bytes(field, inner.b)
}

type valueType struct{ typ, unit string }

type label struct {
	key, str string
	num      int64
	numUnit  string
}

type sample struct {
	locs   []uint64 // leaf first
	values []int64
	labels []label
}

type line struct {
	fn   uint64
	line int64
}

type location struct {
	id, mapping, address uint64
	lines                []line // innermost first
}

type function struct {
	id                     uint64
	name, systemName, file string
	startLine              int64
}

type mapping struct {
	id, start, limit, offset uint64
	file, buildID            string
	hasFunctions             bool
}

type profile struct {
	sampleTypes       []valueType
	samples           []sample
	mappings          []mapping
	locations         []location
	functions         []function
	dropFrames        string
	keepFrames        string
	docURL            string
	timeNanos         int64
	durationNanos     int64
	periodType        *valueType
	period            int64
	comments          []string
	defaultSampleType string
}

type strtab struct {
	idx  map[string]int64
	strs []string
}

func (s *strtab) id(x string) int64 {
	if s.idx == nil {
		s.idx = map[string]int64{"": 0}
		s.strs = []string{""}
	}
	if i, ok := s.idx[x]; ok {
		return i
	}
	i := int64(len(s.strs))
	s.idx[x] = i
	s.strs = append(s.strs, x)
	return i
}

func (p *profile) encode() []byte {
	var st strtab
	st.id("")
	var out pbuf
	vt := func(field int, v valueType) {
		var m pbuf
		m.int64(1, st.id(v.typ))
		m.int64(2, st.id(v.unit))
		out.bytes(field, m.b)
	}
	for _, t := range p.sampleTypes {
		vt(1, t)
	}
	locs := make([]int64, 0, 64)
	for _, s := range p.samples {
		var m pbuf
		locs = locs[:0]
		for _, l := range s.locs {
			locs = append(locs, int64(l))
		}
		m.packed(1, locs)
		m.packed(2, s.values)
		for _, l := range s.labels {
			var lb pbuf
			lb.int64(1, st.id(l.key))
			lb.int64(2, st.id(l.str))
			lb.int64(3, l.num)
			lb.int64(4, st.id(l.numUnit))
			m.bytes(3, lb.b)
		}
		out.bytes(2, m.b)
	}
	for _, mp := range p.mappings {
		var m pbuf
		m.int64(1, int64(mp.id))
		m.int64(2, int64(mp.start))
		m.int64(3, int64(mp.limit))
		m.int64(4, int64(mp.offset))
		m.int64(5, st.id(mp.file))
		m.int64(6, st.id(mp.buildID))
		m.bool(7, mp.hasFunctions)
		m.bool(8, mp.hasFunctions)
		m.bool(9, mp.hasFunctions)
		m.bool(10, mp.hasFunctions)
		out.bytes(3, m.b)
	}
	for _, l := range p.locations {
		var m pbuf
		m.int64(1, int64(l.id))
		m.int64(2, int64(l.mapping))
		m.int64(3, int64(l.address))
		for _, ln := range l.lines {
			var lm pbuf
			lm.int64(1, int64(ln.fn))
			lm.int64(2, ln.line)
			m.bytes(4, lm.b)
		}
		out.bytes(4, m.b)
	}
	for _, f := range p.functions {
		var m pbuf
		m.int64(1, int64(f.id))
		m.int64(2, st.id(f.name))
		m.int64(3, st.id(f.systemName))
		m.int64(4, st.id(f.file))
		m.int64(5, f.startLine)
		out.bytes(5, m.b)
	}
	var tail pbuf
	tail.int64(7, st.id(p.dropFrames))
	tail.int64(8, st.id(p.keepFrames))
	tail.int64(9, p.timeNanos)
	tail.int64(10, p.durationNanos)
	if p.periodType != nil {
		var m pbuf
		m.int64(1, st.id(p.periodType.typ))
		m.int64(2, st.id(p.periodType.unit))
		tail.bytes(11, m.b)
	}
	tail.int64(12, p.period)
	for _, c := range p.comments {
		tail.int64(13, st.id(c))
	}
	tail.int64(14, st.id(p.defaultSampleType))
	tail.int64(15, st.id(p.docURL))
	// The string table must hold every string before it is written.
	for _, s := range st.strs {
		out.bytes(6, []byte(s))
	}
	out.b = append(out.b, tail.b...)
	return out.b
}
