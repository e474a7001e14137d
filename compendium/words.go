package compendium

import "strings"

// wordSet builds a set of normalised words from a whitespace-separated list.
func wordSet(lists ...string) map[string]bool {
	set := make(map[string]bool)
	for _, l := range lists {
		for _, w := range strings.Fields(l) {
			set[Normalize(w)] = true
		}
	}
	return set
}

// particles may join capitalised words inside a name ("Ciénaga de Murgo",
// "Barrio de los Faroles", "Torre de Sal de Ezkarra"). They are matched
// only in lowercase; a capitalised "De" is an ordinary capitalised word.
var particles = map[string]bool{"de": true, "del": true, "la": true, "las": true, "los": true, "el": true}

// articles are stripped from the start of heading names and heuristic
// names ("La Guardia de Ceniza" → "Guardia de Ceniza") and, for matching,
// from the start of multi-word aliases ("la Dama Velada").
var articles = map[string]bool{"el": true, "la": true, "los": true, "las": true, "lo": true,
	"the": true}

// stopWords are never a name on their own and are stripped from the start
// of a capitalised sequence ("En Caldemora" → "Caldemora"). The Snowball
// Spanish list, plus adverbs, connectors, numerals and other words that
// are often capitalised at the start of a sentence, plus a short English
// list.
var stopWords = wordSet(
	// Snowball Spanish (abridged to the forms that can start a sentence).
	`de la que el en y a los del se las por un para con no una su al lo como
	más pero sus le ya o este sí porque esta entre cuando muy sin sobre
	también me hasta hay donde quien desde todo nos durante todos uno les ni
	contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro
	otras otra él tanto esa estos mucho quienes nada muchos cual poco ella
	estar estas algunas algo nosotros mi mis tú te ti tu tus ellas nosotras
	vosotros vosotras os mío mía míos mías tuyo tuya suyo suya nuestro nuestra
	nuestros nuestras vuestro vuestra esos esas estoy estás está estamos están
	estaba estaban estuvo estuvimos he has ha hemos han había habían hubo
	soy eres es somos son sea era eran fui fue fuimos fueron tengo tiene
	tenemos tienen tenía teníamos tuvo tuvimos`,
	// Adverbs, connectors, interrogatives, numerals, determiners.
	`luego después entonces aquí allí ahí allá acá así ahora hoy ayer mañana
	anoche anteayer pronto tarde temprano siempre nunca jamás tampoco además
	aunque mientras pues bueno vale claro quizá quizás tal cada varios varias
	mismo misma mismos mismas solo sólo sola casi incluso según tras hacia
	bajo mediante excepto salvo primero primera primeros segundo segunda
	tercero tercera último última últimos últimas otro cualquier toda todas
	ningún ninguna ninguno algún alguna alguno nadie alguien dos tres cuatro
	cinco seis siete ocho nueve diez once doce veinte cien mil dónde cuándo
	cómo quién cuál cuáles cuánto cuánta cuántos por porque aún todavía bien
	mal mejor peor menos medio demasiado apenas ojalá oye mira vamos venga
	sí no vaya hola adiós gracias perdón ok okay eh ah oh uf bah ay vale
	aparte encima debajo delante detrás dentro fuera cerca lejos arriba abajo
	total resumen nota notas ojo ver véase también etc`,
	// English.
	`the a an and or but of in on at to for with by from as is was are were
	be been it its this that these those he she they we you i his her their
	our my your not no yes then so if when while after before there here
	what who which how why all some any one two three`,
)

// honorifics are titles that precede a name. A heuristic name is looked up
// with and without its leading honorific ("Maese Odalric Pardal" is a
// mention of "Odalric Pardal"), an honorific alone is never a name, and an
// honorific is never taken as a person's given name.
var honorifics = wordSet(`sir lord lady don doña dama maese maestre maestra
	maestro hermana hermano madre padre abuela abuelo tía tío mamá papá
	capitán capitana comandante sargento teniente general gran santa san santo
	fray sor abad abadesa rey reina príncipe princesa infante infanta
	archiduque archiduquesa duque duquesa conde condesa marqués marquesa
	barón baronesa señor señora señorita milord milady mister miss mrs mr
	doctor doctora profesor profesora sumo suma`)

// calendarWords are real month and weekday names (Spanish and English):
// never an entity. Invented months of a campaign calendar are recognised
// by their date context instead ("3 de Brumal", "Brumal del 1347").
var calendarWords = wordSet(`enero febrero marzo abril mayo junio julio agosto
	septiembre setiembre octubre noviembre diciembre lunes martes miércoles
	jueves viernes sábado domingo january february march april may june july
	august september october november december monday tuesday wednesday
	thursday friday saturday sunday`)

// sessionWords name a part of the campaign, not an entity: "Sesión 12",
// "Capítulo 3". Alone or followed by numbers they are never an entity.
var sessionWords = wordSet(`sesión sesiones session sessions capítulo
	capítulos chapter episodio episodios episode parte partes acto actos
	act día días semana semanas mes meses año años partida partidas
	aventura módulo`)

// genericHeadings are single-word section titles that never name an entity
// even in a collection note ("## Notas" in Dioses.md).
var genericHeadings = wordSet(`notas nota resumen índice introducción otros
	otras varios general generalidades historia referencias fuentes pendiente
	pendientes ideas tabla lista apariciones relaciones descripción equipo
	rasgos objetivos trasfondo gente personajes lugares ganchos rumores
	secretos tesoro botín misc miscelánea notes summary overview`)

// isStop reports whether the normalised word w is a stop word.
func isStop(w string) bool { return stopWords[w] }
