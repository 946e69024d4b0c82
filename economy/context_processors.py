def wallet(request):
    return {}
