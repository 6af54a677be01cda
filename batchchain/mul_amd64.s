//go:build amd64 && !purego

#include "textflag.h"

// The kernels of mul_amd64.go, SSE2 only (every amd64 has it). Each
// element is x[i]·r[i] rounded (MULPD, x the first operand, as the Go
// compiler orders MULSD, so that a NaN keeps the same payload), then for
// mulAdd that product plus dst[i] rounded (ADDPD, the product first, as
// the compiler orders ADDSD). Never a fused multiply-add. The loads and
// stores are unaligned (MOVUPD): the slices start at any offset. Four
// elements per step, then a pair, then a single element (MULSD, ADDSD).
//
// Registers: DI dst, SI x, DX r, CX n = len(r), AX i, BX the end of the
// steps of four.

// func mulAddSSE2(dst, x, r []float64)
TEXT ·mulAddSSE2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ r_base+48(FP), DX
	MOVQ r_len+56(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-4, BX
	JZ   addpair

addfour:
	MOVUPD (SI)(AX*8), X0
	MOVUPD 16(SI)(AX*8), X1
	MOVUPD (DX)(AX*8), X2
	MOVUPD 16(DX)(AX*8), X3
	MULPD  X2, X0
	MULPD  X3, X1
	MOVUPD (DI)(AX*8), X4
	MOVUPD 16(DI)(AX*8), X5
	ADDPD  X4, X0
	ADDPD  X5, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	ADDQ   $4, AX
	CMPQ   AX, BX
	JLT    addfour

addpair:
	MOVQ   CX, BX
	SUBQ   AX, BX
	CMPQ   BX, $2
	JLT    addone
	MOVUPD (SI)(AX*8), X0
	MOVUPD (DX)(AX*8), X2
	MULPD  X2, X0
	MOVUPD (DI)(AX*8), X4
	ADDPD  X4, X0
	MOVUPD X0, (DI)(AX*8)
	ADDQ   $2, AX

addone:
	CMPQ  AX, CX
	JGE   addend
	MOVSD (SI)(AX*8), X0
	MULSD (DX)(AX*8), X0
	ADDSD (DI)(AX*8), X0
	MOVSD X0, (DI)(AX*8)

addend:
	RET

// func mulSetSSE2(dst, x, r []float64)
TEXT ·mulSetSSE2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ r_base+48(FP), DX
	MOVQ r_len+56(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-4, BX
	JZ   setpair

setfour:
	MOVUPD (SI)(AX*8), X0
	MOVUPD 16(SI)(AX*8), X1
	MOVUPD (DX)(AX*8), X2
	MOVUPD 16(DX)(AX*8), X3
	MULPD  X2, X0
	MULPD  X3, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	ADDQ   $4, AX
	CMPQ   AX, BX
	JLT    setfour

setpair:
	MOVQ   CX, BX
	SUBQ   AX, BX
	CMPQ   BX, $2
	JLT    setone
	MOVUPD (SI)(AX*8), X0
	MOVUPD (DX)(AX*8), X2
	MULPD  X2, X0
	MOVUPD X0, (DI)(AX*8)
	ADDQ   $2, AX

setone:
	CMPQ  AX, CX
	JGE   setend
	MOVSD (SI)(AX*8), X0
	MULSD (DX)(AX*8), X0
	MOVSD X0, (DI)(AX*8)

setend:
	RET

// The AVX kernels: the same operations four elements per instruction
// (VMULPD then VADDPD, the same operand order), eight per step, then
// four, a pair and a single element; VZEROUPPER before returning.

// func mulAddAVX(dst, x, r []float64)
TEXT ·mulAddAVX(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ r_base+48(FP), DX
	MOVQ r_len+56(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX
	JZ   avxaddfour

avxaddeight:
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD 32(SI)(AX*8), Y1
	VMULPD  (DX)(AX*8), Y0, Y0
	VMULPD  32(DX)(AX*8), Y1, Y1
	VADDPD  (DI)(AX*8), Y0, Y0
	VADDPD  32(DI)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ    $8, AX
	CMPQ    AX, BX
	JLT     avxaddeight

avxaddfour:
	MOVQ    CX, BX
	SUBQ    AX, BX
	CMPQ    BX, $4
	JLT     avxaddpair
	VMOVUPD (SI)(AX*8), Y0
	VMULPD  (DX)(AX*8), Y0, Y0
	VADDPD  (DI)(AX*8), Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ    $4, AX
	SUBQ    $4, BX

avxaddpair:
	CMPQ    BX, $2
	JLT     avxaddone
	VMOVUPD (SI)(AX*8), X0
	VMULPD  (DX)(AX*8), X0, X0
	VADDPD  (DI)(AX*8), X0, X0
	VMOVUPD X0, (DI)(AX*8)
	ADDQ    $2, AX

avxaddone:
	CMPQ   AX, CX
	JGE    avxaddend
	VMOVSD (SI)(AX*8), X0
	VMULSD (DX)(AX*8), X0, X0
	VADDSD (DI)(AX*8), X0, X0
	VMOVSD X0, (DI)(AX*8)

avxaddend:
	VZEROUPPER
	RET

// func mulSetAVX(dst, x, r []float64)
TEXT ·mulSetAVX(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ r_base+48(FP), DX
	MOVQ r_len+56(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX
	JZ   avxsetfour

avxseteight:
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD 32(SI)(AX*8), Y1
	VMULPD  (DX)(AX*8), Y0, Y0
	VMULPD  32(DX)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ    $8, AX
	CMPQ    AX, BX
	JLT     avxseteight

avxsetfour:
	MOVQ    CX, BX
	SUBQ    AX, BX
	CMPQ    BX, $4
	JLT     avxsetpair
	VMOVUPD (SI)(AX*8), Y0
	VMULPD  (DX)(AX*8), Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ    $4, AX
	SUBQ    $4, BX

avxsetpair:
	CMPQ    BX, $2
	JLT     avxsetone
	VMOVUPD (SI)(AX*8), X0
	VMULPD  (DX)(AX*8), X0, X0
	VMOVUPD X0, (DI)(AX*8)
	ADDQ    $2, AX

avxsetone:
	CMPQ   AX, CX
	JGE    avxsetend
	VMOVSD (SI)(AX*8), X0
	VMULSD (DX)(AX*8), X0, X0
	VMOVSD X0, (DI)(AX*8)

avxsetend:
	VZEROUPPER
	RET
