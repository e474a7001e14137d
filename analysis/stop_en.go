package analysis

// englishStopWords is the Snowball English stop list
// (https://snowballstem.org/algorithms/english/stop.txt), folded.
var englishStopWords = stopSet(englishStopList, false)

// englishStopList is the Snowball list. Its contractions ("isn't",
// "they'll"...) can never match a token whole, because the tokenizer splits
// at apostrophes, so they are listed as the pieces the tokenizer produces:
// the clitics (m re s ve d ll t) and the negated auxiliaries (isn aren ...).
// "can", "don", "won" and "let" from "can't", "don't", "won't" and "let's"
// are not listed because they are also content words; "cannot" is.
const englishStopList = `
i me my myself we our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their
theirs themselves what which who whom this that these those am is are was
were be been being have has had having do does did doing would should
could ought

m re s ve d ll t
isn aren wasn weren hasn haven hadn doesn didn wouldn shan shouldn cannot
couldn mustn

a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up
down in out on off over under again further then once here there when
where why how all any both each few more most other some such no nor not
only own same so than too very
`
