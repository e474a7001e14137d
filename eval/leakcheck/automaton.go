package leakcheck

// automaton is an Aho–Corasick automaton over bytes: fed a text byte by
// byte, it marks every pattern that occurs in it, in time linear in the
// text and the occurrences.
type automaton struct {
	patterns int
	root     [256]int32 // the root's transitions, complete: 0 stays at the root
	nodes    []node
	always   []int // the empty patterns, found in any text
}

// node is a state of the automaton: the patterns' prefix spelt by the
// path to it.
type node struct {
	next []edge
	fail int32   // the node of the longest proper suffix that is a prefix of a pattern
	dict int32   // the nearest node on the fail chain that ends patterns; -1 if none
	ends []int32 // the patterns this node spells
}

type edge struct {
	b  byte
	to int32
}

func newAutomaton(patterns []string) *automaton {
	a := &automaton{patterns: len(patterns), nodes: []node{{dict: -1}}}
	for p, pat := range patterns {
		if pat == "" {
			a.always = append(a.always, p)
			continue
		}
		n := int32(0)
		for i := 0; i < len(pat); i++ {
			to := a.child(n, pat[i])
			if to < 0 {
				to = int32(len(a.nodes))
				a.nodes = append(a.nodes, node{dict: -1})
				a.nodes[n].next = append(a.nodes[n].next, edge{pat[i], to})
			}
			n = to
		}
		a.nodes[n].ends = append(a.nodes[n].ends, int32(p))
	}
	for _, e := range a.nodes[0].next {
		a.root[e.b] = e.to
	}
	// Fail and dictionary links, breadth first: a node's links rest on
	// those of shallower nodes.
	queue := make([]int32, 0, len(a.nodes))
	for _, e := range a.nodes[0].next {
		queue = append(queue, e.to)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range a.nodes[n].next {
			f := a.step(a.nodes[n].fail, e.b)
			a.nodes[e.to].fail = f
			if len(a.nodes[f].ends) > 0 {
				a.nodes[e.to].dict = f
			} else {
				a.nodes[e.to].dict = a.nodes[f].dict
			}
			queue = append(queue, e.to)
		}
	}
	return a
}

// child is n's transition on b without falling back, or -1.
func (a *automaton) child(n int32, b byte) int32 {
	for _, e := range a.nodes[n].next {
		if e.b == b {
			return e.to
		}
	}
	return -1
}

// step is the state after reading b in state n.
func (a *automaton) step(n int32, b byte) int32 {
	for n != 0 {
		if to := a.child(n, b); to >= 0 {
			return to
		}
		n = a.nodes[n].fail
	}
	return a.root[b]
}

// scan is one run of the automaton over a text.
type scan struct {
	a     *automaton
	state int32
	found []bool // by pattern
}

func (a *automaton) start() *scan {
	s := &scan{a: a, found: make([]bool, a.patterns)}
	for _, p := range a.always {
		s.found[p] = true
	}
	return s
}

// feed reads the text's next byte.
func (s *scan) feed(b byte) {
	a := s.a
	s.state = a.step(s.state, b)
	n := s.state
	if len(a.nodes[n].ends) == 0 {
		n = a.nodes[n].dict
	}
	for n > 0 {
		for _, p := range a.nodes[n].ends {
			s.found[p] = true
		}
		n = a.nodes[n].dict
	}
}
