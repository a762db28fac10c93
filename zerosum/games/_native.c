/*
 * zerosum.games._native: the Game API's hot calls without numba's per-call unboxing.
 *
 * No rules live here. A game compiles its own kernels as numba cfuncs (plain C function
 * pointers, cached on disk like every kernel) and hands their addresses to a Calls object;
 * Calls checks the state, takes a result array and calls the pointer. The result arrays are
 * recycled: each Calls keeps the last few it handed out and writes one again once only it
 * refers to it (see reusable()), which no Python code can observe; allocating them was most
 * of a call's time. numba's own
 * entry point spends ~0.3 us a call building and freeing a memory record for each array
 * argument; this path costs ~0.1 us, which is what puts a Python loop over the Game API
 * level with OpenSpiel's C++ through pyspiel.
 *
 * Where a method cannot answer (a state that is not a contiguous int64 vector of the game's
 * length, an action that is not an int in range, an illegal action) it returns None, or,
 * given a `fallback` object (the Game), returns what the fallback's generic Python method
 * returns (`_legal_generic(state)`, `_apply_generic(state, action)`, ...), which converts the
 * input or raises the error that says what is wrong. With a fallback the Game binds these
 * methods as its own `legal_actions`, `apply`, `is_terminal`, ...: a call from a user's loop
 * is then one C call, with no Python frame in between. The module is optional: without a C
 * compiler zerosum installs without it and the games use numba's entry points.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

/* How many arrays of each kind a Calls object keeps for reuse. A user's loop holds the array
   it is working on and the one it is replacing; four leave room for a third. */
#define POOL 4

/* The cfunc signatures (zerosum/games/kit/hot_signatures.py). */
typedef int64_t (*legal_fn)(const int64_t *state, int64_t *out, const int64_t *params, int64_t ns, int64_t nout,
                            int64_t np);
typedef int64_t (*apply_fn)(const int64_t *state, int64_t action, int64_t *child, const int64_t *params, int64_t ns,
                            int64_t np);
typedef int64_t (*checked_fn)(const int64_t *state, int64_t action, int64_t *child, const int64_t *params,
                              int64_t *scratch, int64_t ns, int64_t np, int64_t nscratch);
typedef int64_t (*status_fn)(const int64_t *state, const int64_t *params, int64_t ns, int64_t np);

typedef struct {
    PyObject_HEAD
    legal_fn legal;
    apply_fn apply;
    checked_fn apply_checked;
    status_fn status;
    status_fn player;
    PyObject *params_obj; /* the game's params array, kept alive; params points into it */
    const int64_t *params;
    int64_t num_params;
    npy_intp state_size;
    npy_intp max_moves;
    npy_intp capacity; /* the slots of every moves buffer: max_moves and room past it (kit/movebuf.py) */
    int64_t num_actions;
    int64_t *moves; /* capacity slots: the checked apply's scratch (a game without is_legal lists its moves here) */
    PyObject *fallback; /* an object with the generic methods, or NULL: then None is returned */
    int64_t *initial;   /* state_size slots: the starting position, or NULL */
    /* Arrays handed out before, reused once nothing but this object refers to them (see
       fresh_state and fresh_moves): a loop that drops each state and action array as it
       goes then costs no array allocation a move. */
    PyObject *state_pool[POOL];
    PyObject *moves_pool[POOL];
    int state_next, moves_next; /* the slot a new array replaces when none is free */
} Calls;

/* The method names called on the fallback, interned once. */
static PyObject *fb_legal, *fb_apply, *fb_apply_unchecked, *fb_status, *fb_terminal, *fb_player, *fb_returns;
/* returns() of a finished or unfinished game: (1.0, -1.0), (-1.0, 1.0) and (0.0, 0.0). */
static PyObject *returns_p0, *returns_p1, *returns_none;
/* The status codes of zerosum.games.kit.kernels. */
enum { ONGOING = 0, P0_WINS = 1, P1_WINS = 2 };

/* None without a fallback; else fallback.name(*args). */
static PyObject *fall_back(Calls *self, PyObject *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (self->fallback == NULL)
        Py_RETURN_NONE;
    PyObject *call[3] = {self->fallback, nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    return PyObject_VectorcallMethod(name, call, (size_t)(nargs + 1), NULL);
}

/* The data of a C-contiguous 1-D int64 array of the game's length; NULL otherwise. */
static const int64_t *plain_state(const Calls *self, PyObject *obj)
{
    if (self->moves == NULL || !PyArray_Check(obj)) /* moves is NULL until __init__ ran */
        return NULL;
    PyArrayObject *a = (PyArrayObject *)obj;
    if (PyArray_TYPE(a) != NPY_INT64 || PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != self->state_size
        || !PyArray_IS_C_CONTIGUOUS(a))
        return NULL;
    return (const int64_t *)PyArray_DATA(a);
}

/* An exact Python int or a numpy int64 as a C value; 0 when it is neither (or too big). */
static int read_action(PyObject *obj, int64_t *action)
{
    if (PyLong_CheckExact(obj)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        *action = (int64_t)v;
        return 1;
    }
    if (PyArray_IsScalar(obj, Int64)) {
        *action = (int64_t)PyArrayScalar_VAL(obj, Int64);
        return 1;
    }
    return 0;
}

/* Whether an array handed out earlier can be written again: only the pool refers to it
   (no variable, no container, no view, no buffer export, no weak reference holds it) and
   nobody has made it read-only or changed its shape or type in place. Such an array is unreachable from Python, so reusing it is unobservable. */
static int reusable(PyObject *obj)
{
    if (obj == NULL || Py_REFCNT(obj) != 1 || ((PyArrayObject_fields *)obj)->weakreflist != NULL)
        return 0;
    PyArrayObject *a = (PyArrayObject *)obj; /* its shape and type as handed out, unless changed in place */
    return PyArray_ISWRITEABLE(a) && PyArray_TYPE(a) == NPY_INT64 && PyArray_NDIM(a) == 1
           && PyArray_STRIDE(a, 0) == (npy_intp)sizeof(int64_t);
}

/* A new reference to an array of `pool` that can be written again (of `length` elements, unless
   `length` is negative), or NULL when none can. */
static PyObject *take_free(PyObject **pool, npy_intp length)
{
    for (int i = 0; i < POOL; i++) {
        PyObject *a = pool[i];
        if (reusable(a) && (length < 0 || PyArray_DIM((PyArrayObject *)a, 0) == length)) {
            Py_INCREF(a);
            return a;
        }
    }
    return NULL;
}

/* `a`, just made, joins the pool in its oldest slot (the pool holds a reference of its own). */
static void keep(PyObject **pool, int *next, PyObject *a)
{
    Py_INCREF(a);
    Py_XSETREF(pool[*next], a);
    *next = (*next + 1) % POOL;
}

/* A new reference to a state-sized int64 array whose contents the caller overwrites whole:
   a free one from the pool, or a new one that joins the pool. */
static PyObject *fresh_state(Calls *self)
{
    PyObject *a = take_free(self->state_pool, self->state_size);
    if (a != NULL)
        return a;
    a = PyArray_SimpleNew(1, &self->state_size, NPY_INT64);
    if (a != NULL)
        keep(self->state_pool, &self->state_next, a);
    return a;
}

/* Frees the buffer of a moves array (the capsule is the array's base). */
static void free_moves_buffer(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, NULL));
}

/* A new reference to an int64 array with room for capacity actions and length 0, from the
   pool or new; the legal kernel writes its moves into its data (a kernel that lists more
   than max_moves writes into the room past them, not past the buffer), and the caller
   then sets its length in place. Its buffer belongs to a capsule that is its base, so the array does
   not own its data and its length can change while only the pool refers to it. */
static PyObject *fresh_moves(Calls *self)
{
    PyObject *a = take_free(self->moves_pool, -1);
    if (a != NULL)
        return a;
    int64_t *buffer = PyMem_Malloc((size_t)self->capacity * sizeof(int64_t));
    if (buffer == NULL)
        return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(buffer, NULL, free_moves_buffer);
    if (capsule == NULL) {
        PyMem_Free(buffer);
        return NULL;
    }
    npy_intp zero = 0;
    a = PyArray_New(&PyArray_Type, 1, &zero, NPY_INT64, NULL, buffer, 0, NPY_ARRAY_CARRAY, NULL);
    if (a == NULL || PyArray_SetBaseObject((PyArrayObject *)a, capsule) < 0) { /* steals capsule */
        Py_XDECREF(a);
        if (a == NULL)
            Py_DECREF(capsule);
        return NULL;
    }
    keep(self->moves_pool, &self->moves_next, a);
    return a;
}

static void clear_pools(Calls *self)
{
    for (int i = 0; i < POOL; i++) {
        Py_CLEAR(self->state_pool[i]);
        Py_CLEAR(self->moves_pool[i]);
    }
}

static PyObject *Calls_legal(Calls *self, PyObject *state)
{
    const int64_t *s = plain_state(self, state);
    if (s == NULL)
        return fall_back(self, fb_legal, &state, 1);
    PyObject *out = fresh_moves(self);
    if (out == NULL)
        return NULL;
    int64_t *moves = (int64_t *)PyArray_DATA((PyArrayObject *)out);
    int64_t n = self->legal(s, moves, self->params, self->state_size, self->max_moves, self->num_params);
    if (n < 0 || n > self->max_moves) { /* the generic path raises the error that names the kernel */
        Py_DECREF(out);
        return fall_back(self, fb_legal, &state, 1);
    }
    PyArray_DIMS((PyArrayObject *)out)[0] = (npy_intp)n; /* only the pool refers to it: see fresh_moves */
    return out;
}

static PyObject *apply_with(Calls *self, int checked, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "takes (state, action)");
        return NULL;
    }
    int64_t action;
    const int64_t *s = plain_state(self, args[0]);
    if (s == NULL || !read_action(args[1], &action) || action < 0 || action >= self->num_actions)
        return fall_back(self, checked ? fb_apply : fb_apply_unchecked, args, 2);
    PyObject *child = fresh_state(self); /* not args[0]: the caller holds that */
    if (child == NULL)
        return NULL;
    int64_t *c = (int64_t *)PyArray_DATA((PyArrayObject *)child);
    int64_t done = checked
        ? self->apply_checked(s, action, c, self->params, self->moves, self->state_size, self->num_params,
                              self->max_moves)
        : self->apply(s, action, c, self->params, self->state_size, self->num_params);
    if (!done) {
        Py_DECREF(child);
        return fall_back(self, fb_apply, args, 2); /* illegal: the generic path says why */
    }
    return child;
}

static PyObject *Calls_apply(Calls *self, PyObject *const *args, Py_ssize_t nargs)
{
    return apply_with(self, 1, args, nargs);
}

static PyObject *Calls_apply_unchecked(Calls *self, PyObject *const *args, Py_ssize_t nargs)
{
    return apply_with(self, 0, args, nargs);
}

static PyObject *Calls_status(Calls *self, PyObject *state)
{
    const int64_t *s = plain_state(self, state);
    if (s == NULL)
        return fall_back(self, fb_status, &state, 1);
    return PyLong_FromLongLong(self->status(s, self->params, self->state_size, self->num_params));
}

static PyObject *Calls_terminal(Calls *self, PyObject *state)
{
    const int64_t *s = plain_state(self, state);
    if (s == NULL)
        return fall_back(self, fb_terminal, &state, 1);
    return PyBool_FromLong(self->status(s, self->params, self->state_size, self->num_params) != ONGOING);
}

static PyObject *Calls_player(Calls *self, PyObject *state)
{
    const int64_t *s = plain_state(self, state);
    if (s == NULL)
        return fall_back(self, fb_player, &state, 1);
    return PyLong_FromLongLong(self->player(s, self->params, self->state_size, self->num_params));
}

static PyObject *Calls_returns(Calls *self, PyObject *state)
{
    const int64_t *s = plain_state(self, state);
    if (s == NULL)
        return fall_back(self, fb_returns, &state, 1);
    int64_t st = self->status(s, self->params, self->state_size, self->num_params);
    PyObject *r = st == P0_WINS ? returns_p0 : st == P1_WINS ? returns_p1 : returns_none;
    Py_INCREF(r);
    return r;
}

static PyObject *Calls_initial_state(Calls *self, PyObject *unused)
{
    if (self->initial == NULL) {
        PyErr_SetString(PyExc_TypeError, "this Calls object was given no initial state");
        return NULL;
    }
    PyObject *out = PyArray_SimpleNew(1, &self->state_size, NPY_INT64);
    if (out != NULL)
        memcpy(PyArray_DATA((PyArrayObject *)out), self->initial, (size_t)self->state_size * sizeof(int64_t));
    return out;
}

static int Calls_init(Calls *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"legal", "apply", "apply_checked", "status", "player", "params", "state_size",
                            "max_moves", "num_actions", "fallback", "initial", "capacity", NULL};
    unsigned long long legal, apply, checked, status, player;
    PyObject *params, *fallback = Py_None, *initial = Py_None;
    Py_ssize_t state_size, max_moves, capacity = 0;
    long long num_actions;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKKKKOnnL|OOn", names, &legal, &apply, &checked, &status,
                                     &player, &params, &state_size, &max_moves, &num_actions, &fallback, &initial,
                                     &capacity))
        return -1;
    if (capacity < max_moves)
        capacity = max_moves;
    if (!legal || !apply || !checked || !status || !player || state_size <= 0 || max_moves <= 0
        || num_actions <= 0) {
        PyErr_SetString(PyExc_ValueError, "Calls needs five function addresses and positive sizes");
        return -1;
    }
    if (!PyArray_Check(params) || PyArray_TYPE((PyArrayObject *)params) != NPY_INT64
        || PyArray_NDIM((PyArrayObject *)params) != 1 || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)params)) {
        PyErr_SetString(PyExc_TypeError, "params must be a contiguous 1-D int64 array");
        return -1;
    }
    if (initial != Py_None
        && (!PyArray_Check(initial) || PyArray_TYPE((PyArrayObject *)initial) != NPY_INT64
            || PyArray_NDIM((PyArrayObject *)initial) != 1 || PyArray_DIM((PyArrayObject *)initial, 0) != state_size
            || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)initial))) {
        PyErr_SetString(PyExc_TypeError, "initial must be a contiguous 1-D int64 array of length state_size");
        return -1;
    }
    int64_t *moves = PyMem_Malloc((size_t)capacity * sizeof(int64_t));
    int64_t *start = initial == Py_None ? NULL : PyMem_Malloc((size_t)state_size * sizeof(int64_t));
    if (moves == NULL || (initial != Py_None && start == NULL)) {
        PyMem_Free(moves);
        PyMem_Free(start);
        PyErr_NoMemory();
        return -1;
    }
    if (start != NULL)
        memcpy(start, PyArray_DATA((PyArrayObject *)initial), (size_t)state_size * sizeof(int64_t));
    PyMem_Free(self->initial);
    self->initial = start;
    PyMem_Free(self->moves);
    clear_pools(self); /* the sizes may change */
    Py_INCREF(params);
    Py_XDECREF(self->params_obj);
    self->params_obj = params;
    Py_XINCREF(fallback == Py_None ? NULL : fallback);
    Py_CLEAR(self->fallback);
    self->fallback = fallback == Py_None ? NULL : fallback;
    self->params = (const int64_t *)PyArray_DATA((PyArrayObject *)params);
    self->num_params = (int64_t)PyArray_DIM((PyArrayObject *)params, 0);
    self->moves = moves;
    self->legal = (legal_fn)(uintptr_t)legal;
    self->apply = (apply_fn)(uintptr_t)apply;
    self->apply_checked = (checked_fn)(uintptr_t)checked;
    self->status = (status_fn)(uintptr_t)status;
    self->player = (status_fn)(uintptr_t)player;
    self->state_size = (npy_intp)state_size;
    self->max_moves = (npy_intp)max_moves;
    self->capacity = (npy_intp)capacity;
    self->num_actions = (int64_t)num_actions;
    return 0;
}

/* The fallback (a Game) holds this object in its attributes: a cycle the collector must see. */
static int Calls_traverse(Calls *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fallback);
    Py_VISIT(self->params_obj);
    for (int i = 0; i < POOL; i++) {
        Py_VISIT(self->state_pool[i]);
        Py_VISIT(self->moves_pool[i]);
    }
    return 0;
}

static int Calls_clear(Calls *self)
{
    Py_CLEAR(self->fallback);
    clear_pools(self);
    return 0;
}

static void Calls_dealloc(Calls *self)
{
    PyObject_GC_UnTrack(self);
    PyMem_Free(self->moves);
    PyMem_Free(self->initial);
    Py_CLEAR(self->fallback);
    clear_pools(self);
    Py_XDECREF(self->params_obj);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Calls_methods[] = {
    {"legal", (PyCFunction)Calls_legal, METH_O,
     "legal(state) -> the legal actions as a new int64 array, or None"},
    {"apply", (PyCFunction)(void (*)(void))Calls_apply, METH_FASTCALL,
     "apply(state, action) -> the successor as a new array, or None (illegal or not plain)"},
    {"apply_unchecked", (PyCFunction)(void (*)(void))Calls_apply_unchecked, METH_FASTCALL,
     "apply_unchecked(state, action) -> the successor, or None (not plain); no legality check"},
    {"status", (PyCFunction)Calls_status, METH_O, "status(state) -> the status code as an int, or None"},
    {"terminal", (PyCFunction)Calls_terminal, METH_O, "terminal(state) -> True when the game is over, or None"},
    {"player", (PyCFunction)Calls_player, METH_O, "player(state) -> the player to move, or None"},
    {"initial_state", (PyCFunction)Calls_initial_state, METH_NOARGS,
     "initial_state() -> a new copy of the starting position (given as initial=)"},
    {"returns", (PyCFunction)Calls_returns, METH_O,
     "returns(state) -> (1.0, -1.0), (-1.0, 1.0) or (0.0, 0.0) for players 0 and 1, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CallsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games._native.Calls",
    .tp_doc = "Calls(legal, apply, apply_checked, status, player, params, state_size, max_moves, num_actions, "
              "fallback=None, initial=None, capacity=max_moves): one game's hot calls (capacity: the slots "
              "of each moves buffer, room for a legal kernel that lists more than max_moves)",
    .tp_basicsize = sizeof(Calls),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Calls_traverse,
    .tp_clear = (inquiry)Calls_clear,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Calls_init,
    .tp_dealloc = (destructor)Calls_dealloc,
    .tp_methods = Calls_methods,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "zerosum.games._native",
    "The Game API's hot calls through numba cfuncs, without per-call unboxing.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    import_array();
    if (PyType_Ready(&CallsType) < 0)
        return NULL;
    fb_legal = PyUnicode_InternFromString("_legal_generic");
    fb_apply = PyUnicode_InternFromString("_apply_generic");
    fb_apply_unchecked = PyUnicode_InternFromString("_apply_unchecked_generic");
    fb_status = PyUnicode_InternFromString("_status_generic");
    fb_terminal = PyUnicode_InternFromString("_terminal_generic");
    fb_player = PyUnicode_InternFromString("_player_generic");
    fb_returns = PyUnicode_InternFromString("_returns_generic");
    returns_p0 = Py_BuildValue("(dd)", 1.0, -1.0);
    returns_p1 = Py_BuildValue("(dd)", -1.0, 1.0);
    returns_none = Py_BuildValue("(dd)", 0.0, 0.0);
    if (!fb_legal || !fb_apply || !fb_apply_unchecked || !fb_status || !fb_terminal || !fb_player || !fb_returns
        || !returns_p0 || !returns_p1 || !returns_none)
        return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CallsType);
    if (PyModule_AddObject(m, "Calls", (PyObject *)&CallsType) < 0) {
        Py_DECREF(&CallsType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
