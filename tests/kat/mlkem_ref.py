"""A plain Python ML-KEM, written from FIPS 203's algorithms (section 4-6) for generating test
vectors only: slow, not constant time, no input checks. make_mlkem_vectors.py checks it against
pyca/cryptography on ML-KEM-768 and -1024 before using it for ML-KEM-512, which cryptography
lacks."""
import hashlib

Q = 3329
N = 256
PARAMS = {512: (2, 3, 2, 10, 4), 768: (3, 2, 2, 10, 4), 1024: (4, 2, 2, 11, 5)}


def bitrev7(i):
    return int(f"{i:07b}"[::-1], 2)


ZETA = [pow(17, bitrev7(i), Q) for i in range(128)]
GAMMA = [pow(17, 2 * bitrev7(i) + 1, Q) for i in range(128)]


def G(x):
    h = hashlib.sha3_512(x).digest()
    return h[:32], h[32:]


def H(x):
    return hashlib.sha3_256(x).digest()


def J(x):
    return hashlib.shake_256(x).digest(32)


def PRF(eta, s, b):
    return hashlib.shake_256(s + bytes([b])).digest(64 * eta)


def bits_of(b):
    return [(b[i // 8] >> (i % 8)) & 1 for i in range(8 * len(b))]


def byte_encode(f, d):  # Algorithm 5
    bits = []
    for a in f:
        bits += [(a >> j) & 1 for j in range(d)]
    return bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(len(bits) // 8))


def byte_decode(b, d):  # Algorithm 6
    bits = bits_of(b)
    m = 2 ** d if d < 12 else Q
    return [sum(bits[i * d + j] << j for j in range(d)) % m for i in range(N)]


def compress(x, d):
    return ((x << d) * 2 + Q) // (2 * Q) % (1 << d)


def decompress(y, d):
    return (y * Q * 2 + (1 << d)) // (2 << d)


def sample_ntt(b):  # Algorithm 7
    xof = hashlib.shake_128(b).digest(168 * 8)
    a, i = [], 0
    while len(a) < N:
        c = xof[i:i + 3]
        i += 3
        d1 = c[0] + 256 * (c[1] % 16)
        d2 = c[1] // 16 + 16 * c[2]
        if d1 < Q:
            a.append(d1)
        if d2 < Q and len(a) < N:
            a.append(d2)
    return a


def sample_cbd(b, eta):  # Algorithm 8
    bits = bits_of(b)
    return [(sum(bits[2 * i * eta + j] for j in range(eta)) -
             sum(bits[2 * i * eta + eta + j] for j in range(eta))) % Q for i in range(N)]


def ntt(f):  # Algorithm 9
    f = list(f)
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, N, 2 * length):
            z = ZETA[i]
            i += 1
            for j in range(start, start + length):
                t = z * f[j + length] % Q
                f[j + length] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        length //= 2
    return f


def ntt_inv(f):  # Algorithm 10
    f = list(f)
    i = 127
    length = 2
    while length <= 128:
        for start in range(0, N, 2 * length):
            z = ZETA[i]
            i -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = z * (f[j + length] - t) % Q
        length *= 2
    return [x * 3303 % Q for x in f]


def mul_ntt(f, g):  # Algorithms 11 and 12
    h = [0] * N
    for i in range(128):
        a0, a1, b0, b1 = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]
        h[2 * i] = (a0 * b0 + a1 * b1 * GAMMA[i]) % Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % Q
    return h


def add(f, g):
    return [(a + b) % Q for a, b in zip(f, g)]


def kpke_keygen(d, k, eta1):  # Algorithm 13
    rho, sigma = G(d + bytes([k]))
    A = [[sample_ntt(rho + bytes([j, i])) for j in range(k)] for i in range(k)]
    s = [ntt(sample_cbd(PRF(eta1, sigma, i), eta1)) for i in range(k)]
    e = [ntt(sample_cbd(PRF(eta1, sigma, k + i), eta1)) for i in range(k)]
    t = []
    for i in range(k):
        acc = e[i]
        for j in range(k):
            acc = add(acc, mul_ntt(A[i][j], s[j]))
        t.append(acc)
    ek = b"".join(byte_encode(x, 12) for x in t) + rho
    dk = b"".join(byte_encode(x, 12) for x in s)
    return ek, dk


def kpke_encrypt(ek, m, r, k, eta1, eta2, du, dv):  # Algorithm 14
    t = [byte_decode(ek[384 * i:384 * (i + 1)], 12) for i in range(k)]
    rho = ek[384 * k:]
    A = [[sample_ntt(rho + bytes([j, i])) for j in range(k)] for i in range(k)]
    y = [ntt(sample_cbd(PRF(eta1, r, i), eta1)) for i in range(k)]
    e1 = [sample_cbd(PRF(eta2, r, k + i), eta2) for i in range(k)]
    e2 = sample_cbd(PRF(eta2, r, 2 * k), eta2)
    u = []
    for i in range(k):
        acc = [0] * N
        for j in range(k):
            acc = add(acc, mul_ntt(A[j][i], y[j]))
        u.append(add(ntt_inv(acc), e1[i]))
    mu = [decompress(b, 1) for b in byte_decode(m, 1)]
    acc = [0] * N
    for j in range(k):
        acc = add(acc, mul_ntt(t[j], y[j]))
    v = add(add(ntt_inv(acc), e2), mu)
    c1 = b"".join(byte_encode([compress(x, du) for x in u[i]], du) for i in range(k))
    c2 = byte_encode([compress(x, dv) for x in v], dv)
    return c1 + c2


def kpke_decrypt(dk, c, k, du, dv):  # Algorithm 15
    u = [[decompress(x, du) for x in byte_decode(c[32 * du * i:32 * du * (i + 1)], du)]
         for i in range(k)]
    v = [decompress(x, dv) for x in byte_decode(c[32 * du * k:], dv)]
    s = [byte_decode(dk[384 * i:384 * (i + 1)], 12) for i in range(k)]
    acc = [0] * N
    for i in range(k):
        acc = add(acc, mul_ntt(s[i], ntt(u[i])))
    w = [(a - b) % Q for a, b in zip(v, ntt_inv(acc))]
    return byte_encode([compress(x, 1) for x in w], 1)


def keygen(bits, d, z):  # Algorithm 16
    k, eta1, _, _, _ = PARAMS[bits]
    ek, dk_pke = kpke_keygen(d, k, eta1)
    return ek, dk_pke + ek + H(ek) + z


def encaps(bits, ek, m):  # Algorithm 17
    k, eta1, eta2, du, dv = PARAMS[bits]
    K, r = G(m + H(ek))
    return K, kpke_encrypt(ek, m, r, k, eta1, eta2, du, dv)


def decaps(bits, dk, c):  # Algorithm 18
    k, eta1, eta2, du, dv = PARAMS[bits]
    dk_pke, ek, h, z = dk[:384 * k], dk[384 * k:768 * k + 32], dk[768 * k + 32:768 * k + 64], dk[768 * k + 64:]
    m = kpke_decrypt(dk_pke, c, k, du, dv)
    K, r = G(m + h)
    Kbar = J(z + c)
    return K if kpke_encrypt(ek, m, r, k, eta1, eta2, du, dv) == c else Kbar
