# Genebank API / worker image. The database is external (see docker-compose.yml).
FROM python:3.11-slim

# GENEBANK_DATA_DIR is the one place the server writes (the admin session secret, the bootstrap admin
# key file): a volume owned by the runtime user. The ONNX model is exported at build time into
# GENEBANK_MODELS_DIR, read-only, so no container exports it (or falls back to torch) when it starts.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    GENEBANK_HOST=0.0.0.0 \
    GENEBANK_PORT=8000 \
    GENEBANK_DATA_DIR=/var/lib/genebank \
    GENEBANK_MODELS_DIR=/opt/genebank/models

WORKDIR /srv/genebank
# CPU-only torch first: the default wheel on PyPI pulls several GB of CUDA libraries.
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY clients ./clients
COPY migrations ./migrations
RUN pip install -e . \
    && useradd --system --create-home --home-dir /home/genebank --shell /usr/sbin/nologin genebank \
    && install -d -o genebank -g genebank -m 0700 /var/lib/genebank
RUN genebank export-model && chmod -R a+rX /opt/genebank

USER genebank
VOLUME ["/var/lib/genebank"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"]
CMD ["genebank", "serve"]
