//go:build !purego

#include "textflag.h"

// func dotFMA(a, b []float32) float32
//
// len(b) must be at least len(a). Four 8-lane accumulators take 32 values
// per iteration with fused multiply-adds, then 8 at a time into the first
// accumulator, then the tail one value at a time after the horizontal sum.
TEXT ·dotFMA(SB), NOSPLIT, $0-52
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS     (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         loop8

reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0

tail:
	TESTQ       CX, CX
	JEQ         done
	VMOVSS      (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	DECQ        CX
	JMP         tail

done:
	VZEROUPPER
	MOVSS X0, ret+48(FP)
	RET

// func dotI8AVX2(a, b []int8) int32
//
// len(a) is a multiple of 32 and len(b) at least len(a); codes lie in
// [-127, 127]. VPMADDUBSW multiplies unsigned by signed bytes, so a's sign
// is moved onto b (VPSIGNB) and a made non-negative (VPABSB): each 16-bit
// pair sum is then at most 2·127·127 = 32,258 and cannot saturate.
// VPMADDWD by ones widens the pairs to 32 bits. Two accumulators, 64 bytes
// per iteration, then 32.
TEXT ·dotI8AVX2(SB), NOSPLIT, $0-52
	MOVQ    a_base+0(FP), SI
	MOVQ    a_len+8(FP), CX
	MOVQ    b_base+24(FP), DI
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPCMPEQW Y15, Y15, Y15
	VPSRLW  $15, Y15, Y15 // sixteen 16-bit ones

i8loop64:
	CMPQ       CX, $64
	JL         i8loop32
	VMOVDQU    (SI), Y2
	VMOVDQU    32(SI), Y3
	VMOVDQU    (DI), Y4
	VMOVDQU    32(DI), Y5
	VPSIGNB    Y2, Y4, Y4
	VPSIGNB    Y3, Y5, Y5
	VPABSB     Y2, Y2
	VPABSB     Y3, Y3
	VPMADDUBSW Y4, Y2, Y2
	VPMADDUBSW Y5, Y3, Y3
	VPMADDWD   Y15, Y2, Y2
	VPMADDWD   Y15, Y3, Y3
	VPADDD     Y2, Y0, Y0
	VPADDD     Y3, Y1, Y1
	ADDQ       $64, SI
	ADDQ       $64, DI
	SUBQ       $64, CX
	JMP        i8loop64

i8loop32:
	CMPQ       CX, $32
	JL         i8reduce
	VMOVDQU    (SI), Y2
	VMOVDQU    (DI), Y4
	VPSIGNB    Y2, Y4, Y4
	VPABSB     Y2, Y2
	VPMADDUBSW Y4, Y2, Y2
	VPMADDWD   Y15, Y2, Y2
	VPADDD     Y2, Y0, Y0
	ADDQ       $32, SI
	ADDQ       $32, DI
	SUBQ       $32, CX
	JMP        i8loop32

i8reduce:
	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xb1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX
	VZEROUPPER
	MOVL         AX, ret+48(FP)
	RET

// func prefetchBytes(p *int8, n int)
//
// Hints that the n bytes at p will be read soon: PREFETCHT0 on each of
// their 64-byte lines.
TEXT ·prefetchBytes(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ADDQ SI, CX

pfloop:
	CMPQ       SI, CX
	JAE        pfdone
	PREFETCHT0 (SI)
	ADDQ       $64, SI
	JMP        pfloop

pfdone:
	RET

