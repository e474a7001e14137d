package story

import "testing"

func TestOutOfGame(t *testing.T) {
	table := []struct {
		sentence string
		want     bool
	}{
		// attendance
		{"Jugadores: Marta (Lyra), Javi (Dorn), Lucía (Nix), Dani (Tomás), Álex (Fenwick).", true},
		{"Las escribo la misma noche, así que perdonad las faltas. Jugadores: Marta (Lyra), Javi (Dorn).", true},
		{"Asistencia: todos menos Dani.", true},
		{"Faltó Lucía.", true},
		{"Faltó Lucía (examen).", true},
		{"No vinieron Dani y Álex, que estaban de viaje.", true},
		{"- Asistentes: Marta, Javi y Lucía.", true},
		{"**Jugadores:** Marta, Javi.", true},
		{"Attendance: Ann, Bob, Carl.", true},
		{"Players: Ann (Lyra), Bob (Dorn).", true},
		{"Bob couldn't make it this week.", true},
		// the note-taker
		{"Notas de Sergio otra vez (Javi dice que ya ha cumplido).", true},
		{"Notas de Sergio.", true},
		{"Notas del máster (Sergio).", true},
		{"Perdonad las faltas.", true},
		{"Lo apunto todo porque es la sesión más importante desde Ulmenor.", true},
		{"Sesión de seis horas.", true},
		{"Sesión corta pero muy dura.", true},
		{"Ha sido una sesión larguísima (casi cinco horas).", true},
		{"Nota para mí: la luna nueva es el 13 de Brumal.", true},
		{"Nota de Sergio para la mesa: Marta, lo del séptimo nicho fue la mejor jugada.", true},
		{"Javi me lo dijo por WhatsApp después de la sesión.", true},
		{"Note to self: give the duke a limp.", true},
		// table talk and asides
		{"Apunte: a Marta le encantó Odalric.", true},
		{"Repetir el bigote.", true},
		{"Pedimos pizza a mitad.", true},
		{"Nos fuimos a las 2 de la mañana.", true},
		{"Próxima sesión el jueves.", true},
		{"Última sesión antes del parón de verano.", true},
		{"Subimos a nivel 8.", true},
		{"Quedamos el viernes a las siete.", true},
		{"OOC: Bob needs to leave early.", true},
		{"(OOC: la próxima vez traigo los dados.)", true},
		{"We ordered pizza halfway through.", true},
		{"Next session on Thursday, at Ann's place.", true},
		{"We wrapped up at midnight.", true},
		// the story: dialogue, events naming characters
		{"Nix se da cuenta de que al decir que es todo lo que tiene se le retuerce el bigote: miente, tiene más.", false},
		{"—¿Dónde está Anika? —preguntó Lyra.", false},
		{"Garrik cae de rodillas, nos mira con cara de sorpresa y se muere en brazos de Fenwick.", false},
		{"Faltó poco para que Dorn cayera al pozo.", false},
		{"Cuando lo del almacén en la sesión 4, Garrik fue a cobrarle a Bastián el último pago.", false},
		{"Los jugadores de dados de la taberna se callan al ver a Rhosyn.", false},
		{"Las notas de Fenwick dicen que la tinta es nueva.", false},
		{"Notas de Fenwick: la tinta de la tercera planta es más nueva.", false},
		{"Lyra (la barda) canta el Cántico.", false},
		{"El posadero es Maese Odalric Pardal.", false},
		{"Ciriela les habla de los Hijos del Silencio, un culto de Ozrún.", false},
		{"Los ahogados se paran y se derrumban en el agua como ropa mojada.", false},
		{"La Guardia llega media hora tarde.", false},
		{"The duke ordered the gates closed.", false},
		{"Next time they meet Vesper, he will ask for the favor.", false},
		{"The players of the court watched the duel in silence.", false},
		{"", false},
	}
	for _, c := range table {
		if got := OutOfGame(c.sentence); got != c.want {
			t.Errorf("OutOfGame(%q) = %v, want %v", c.sentence, got, c.want)
		}
	}
}
